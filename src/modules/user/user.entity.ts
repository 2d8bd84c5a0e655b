import { randomUUID } from 'node:crypto';
import { Entity, ManyToOne, PrimaryKey, Property } from '@mikro-orm/core';
import { ObjectType } from 'type-graphql';
import { ApiField } from '../../schema/fields';
import { Sortable } from '../../schema/sorting';
import { TenantScoped, TIMESTAMP } from '../../schema/base.entity';
import { Company } from '../company/company.entity';

@ObjectType()
@TenantScoped()
// The fields its lists sort by (docs/conventions.md, Lists).
@Sortable({ first_name: 'firstName', last_name: 'lastName', email: 'email' })
@Entity({ tableName: 'users' })
export class User {
  @ApiField('id', 'uuid')
  @PrimaryKey({ type: 'uuid' })
  id: string = randomUUID();

  @ManyToOne(() => Company, { fieldName: 'company_uuid', hidden: true })
  company!: Company;

  @ApiField('first_name', 'string')
  @Property({ type: 'text' })
  firstName!: string;

  @ApiField('last_name', 'string')
  @Property({ type: 'text' })
  lastName!: string;

  @ApiField('email', 'email', { nullable: true })
  @Property({ type: 'text', nullable: true })
  email: string | null = null;

  @ApiField('created_at', 'datetime')
  @Property({ ...TIMESTAMP })
  createdAt: Date = new Date();

  @ApiField('updated_at', 'datetime')
  // The same instant as created_at until the record first changes.
  @Property({ ...TIMESTAMP, onUpdate: () => new Date() })
  updatedAt: Date = this.createdAt;
}
