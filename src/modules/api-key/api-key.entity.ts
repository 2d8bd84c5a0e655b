import { randomUUID } from 'node:crypto';
import { Entity, ManyToOne, PrimaryKey, Property } from '@mikro-orm/core';
import { TIMESTAMP } from '../../schema/base.entity';
import { Company } from '../company/company.entity';
import { User } from '../user/user.entity';

export type UsagePeriod = 'hour' | 'day' | 'month';

// Only a SHA-256 hash of the key is stored; the key itself is shown once, at creation.
@Entity({ tableName: 'api_keys' })
export class ApiKey {
  @PrimaryKey({ type: 'uuid' })
  id: string = randomUUID();

  @ManyToOne(() => Company, { fieldName: 'company_uuid' })
  company!: Company;

  @ManyToOne(() => User, { fieldName: 'user_id' })
  user!: User;

  @Property({ type: 'text', unique: true })
  keyHash!: string;

  /** First characters of the key, for recognising it in listings. */
  @Property({ type: 'text' })
  keyPrefix!: string;

  @Property({ type: 'text[]', nullable: true })
  allowedIps: string[] | null = null;

  @Property({ type: 'integer', nullable: true })
  usageLimit: number | null = null;

  @Property({ type: 'text', nullable: true })
  usagePeriod: UsagePeriod | null = null;

  @Property({ ...TIMESTAMP, onCreate: () => new Date() })
  createdAt: Date = new Date();

  @Property({ ...TIMESTAMP, nullable: true })
  revokedAt: Date | null = null;
}
