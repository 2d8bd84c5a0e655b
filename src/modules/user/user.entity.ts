import { randomUUID } from 'node:crypto';
import { ShowsResource } from '../../schema/access';
import { Entity, ManyToOne, PrimaryKey, Property } from '@mikro-orm/core';
import { ObjectType, registerEnumType } from 'type-graphql';
import { ApiField } from '../../schema/fields';
import { Sortable } from '../../schema/sorting';
import { TenantScoped, TIMESTAMP } from '../../data/base.entity';
import { Company } from '../company/company.entity';

/** A user's role (docs/people-and-access.md); the values are src/domain/scopes.ts's roles. */
export enum UserRole {
  OWNER = 'owner',
  ADMIN = 'admin',
  OFFICE = 'office',
  TECHNICIAN = 'technician',
}
registerEnumType(UserRole, { name: 'UserRole' });

@ObjectType()
@ShowsResource('users')
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

  @ApiField('phone', 'phone', { nullable: true })
  @Property({ type: 'text', nullable: true })
  phone: string | null = null;

  @ApiField('role', 'enum', { enum: UserRole })
  @Property({ type: 'text' })
  role: UserRole = UserRole.OFFICE;

  /** False once deactivated: the user's keys stop working, what they made keeps naming them. */
  @ApiField('active', 'boolean')
  @Property({ type: 'boolean' })
  active: boolean = true;

  @ApiField('created_at', 'datetime')
  @Property({ ...TIMESTAMP })
  createdAt: Date = new Date();

  @ApiField('updated_at', 'datetime')
  // The same instant as created_at until the record first changes.
  @Property({ ...TIMESTAMP, onUpdate: () => new Date() })
  updatedAt: Date = this.createdAt;
}
