import { randomUUID } from 'node:crypto';
import { Entity, ManyToOne, PrimaryKey, Property } from '@mikro-orm/core';
import { ObjectType, registerEnumType } from 'type-graphql';
import { TIMESTAMP } from '../../data/base.entity';
import { ApiField } from '../../schema/fields';
import { ShowsResource } from '../../schema/access';
import { Company } from '../company/company.entity';
import { User } from '../user/user.entity';
import type { KeyScope } from '../../domain/scopes';

export type UsagePeriod = 'hour' | 'day' | 'month';
/** UsagePeriod's values as a GraphQL enum. */
export enum ApiKeyUsagePeriod {
  HOUR = 'hour',
  DAY = 'day',
  MONTH = 'month',
}
registerEnumType(ApiKeyUsagePeriod, { name: 'ApiKeyUsagePeriod' });

// Only a SHA-256 hash of the key is stored; the key itself is shown once, at creation.
@ObjectType()
@ShowsResource('api_keys')
@Entity({ tableName: 'api_keys' })
export class ApiKey {
  @ApiField('id', 'uuid')
  @PrimaryKey({ type: 'uuid' })
  id: string = randomUUID();

  @ManyToOne(() => Company, { fieldName: 'company_uuid' })
  company!: Company;

  @ManyToOne(() => User, { fieldName: 'user_id' })
  user!: User;

  @ApiField('user_id', 'uuid', { reads: ['user'] })
  get userId(): string {
    return this.user.id;
  }

  @Property({ type: 'text', unique: true })
  keyHash!: string;

  /** First characters of the key, for recognising it in listings. */
  @ApiField('prefix', 'string', { description: 'The first 8 characters of the secret' })
  @Property({ type: 'text' })
  keyPrefix!: string;

  @ApiField('name', 'string', { nullable: true })
  @Property({ type: 'text', nullable: true })
  name: string | null = null;

  /** Narrow the user's role, never widen it (docs/people-and-access.md); `*` is the role's rights. */
  @ApiField('scopes', 'string', { list: true, description: '<resource>:read, <resource>:write, *:read or *' })
  @Property({ type: 'text[]' })
  scopes: KeyScope[] = ['*'];

  @ApiField('allowed_ips', 'string', { list: true, nullable: true })
  @Property({ type: 'text[]', nullable: true })
  allowedIps: string[] | null = null;

  @ApiField('usage_limit', 'int', { nullable: true })
  @Property({ type: 'integer', nullable: true })
  usageLimit: number | null = null;

  @ApiField('usage_period', 'enum', { enum: ApiKeyUsagePeriod, nullable: true })
  @Property({ type: 'text', nullable: true })
  usagePeriod: UsagePeriod | null = null;

  @ApiField('created_at', 'datetime')
  @Property({ ...TIMESTAMP, onCreate: () => new Date() })
  createdAt: Date = new Date();

  /** To the minute, written at most once a minute per key (src/auth/last-used.ts). */
  @ApiField('last_used_at', 'datetime', { nullable: true })
  @Property({ ...TIMESTAMP, nullable: true })
  lastUsedAt: Date | null = null;

  @ApiField('revoked_at', 'datetime', { nullable: true })
  @Property({ ...TIMESTAMP, nullable: true })
  revokedAt: Date | null = null;
}
