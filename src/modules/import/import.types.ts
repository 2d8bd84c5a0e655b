import { ArgsType, ObjectType, registerEnumType } from 'type-graphql';
import { ShowsResource } from '../../schema/access';
import { ApiField, InputField } from '../../schema/fields';

// What the import routes take and return, declared once for both surfaces (docs/import-export.md).

/** The engine's task that writes one import (src/modules/import/import.task.ts). */
export const IMPORT_TASK = 'imports';

export enum ImportResource {
  CUSTOMERS = 'customers',
  LOCATIONS = 'locations',
  JOBS = 'jobs',
  INVOICES = 'invoices',
  PAYMENTS = 'payments',
}
registerEnumType(ImportResource, { name: 'ImportResource' });

export enum ImportMode {
  CREATE = 'create',
  UPSERT = 'upsert',
}
registerEnumType(ImportMode, { name: 'ImportMode' });

export enum ImportStatus {
  QUEUED = 'queued',
  RUNNING = 'running',
  SUCCEEDED = 'succeeded',
  FAILED = 'failed',
  CANCELLED = 'cancelled',
}
registerEnumType(ImportStatus, { name: 'ImportStatus' });

export enum ImportFileFormat {
  CSV = 'csv',
  JSON = 'json',
}

const MATCH_ON = /^(email|uuid|external_id:[a-z][a-z0-9_]{0,31})$/;

/** The options of an import, beside its file: the multipart fields (REST) and the mutation's arguments (GraphQL). */
@ArgsType()
export class ImportCreateInput {
  @InputField('resource', 'enum', { enum: ImportResource, required: true }) resource!: ImportResource;
  @InputField('mode', 'enum', { enum: ImportMode, default: 'create', description: 'create: every row a new record; upsert: a row matching a record (match_on) updates it' })
  mode?: ImportMode;
  @InputField('match_on', 'string', {
    nullable: true,
    description: 'upsert: email (customers), uuid, or external_id:<source>; default uuid',
    check: (v: string) => (MATCH_ON.test(v) ? null : 'must be email, uuid or external_id:<source>'),
  })
  matchOn?: string | null;
  @InputField('dry_run', 'boolean', { default: false, description: 'Validate and count every row, write nothing' }) dryRun?: boolean;
  @InputField('all_or_nothing', 'boolean', { default: false, description: 'One invalid row and nothing is written' }) allOrNothing?: boolean;
  @InputField('mapping', 'json', { nullable: true, description: '{"<file column>": "<field>"}: columns named otherwise than the REST fields; null ignores a column' })
  mapping?: Record<string, unknown> | null;
}

@ObjectType()
@ShowsResource('imports')
export class Import {
  @ApiField('uuid', 'uuid') uuid!: string;
  @ApiField('resource', 'enum', { enum: ImportResource }) resource!: ImportResource;
  @ApiField('mode', 'enum', { enum: ImportMode }) mode!: ImportMode;
  @ApiField('match_on', 'string', { nullable: true }) matchOn!: string | null;
  @ApiField('dry_run', 'boolean') dryRun!: boolean;
  @ApiField('all_or_nothing', 'boolean') allOrNothing!: boolean;
  @ApiField('file_name', 'string', { nullable: true }) fileName!: string | null;
  @ApiField('status', 'enum', { enum: ImportStatus }) status!: ImportStatus;
  @ApiField('message', 'text', { nullable: true, description: 'Why the whole import failed or stopped' }) message!: string | null;
  @ApiField('rows_total', 'int') rowsTotal!: number;
  @ApiField('rows_done', 'int') rowsDone!: number;
  @ApiField('created', 'int') created!: number;
  @ApiField('updated', 'int') updated!: number;
  @ApiField('unchanged', 'int') unchanged!: number;
  @ApiField('failed', 'int') failed!: number;
  @ApiField('started_at', 'datetime', { nullable: true }) startedAt!: Date | null;
  @ApiField('finished_at', 'datetime', { nullable: true }) finishedAt!: Date | null;
  @ApiField('created_at', 'datetime') createdAt!: Date;
  @ApiField('updated_at', 'datetime') updatedAt!: Date;
}

/** One error of a row: the REST name of the field at fault (`row` for the whole row) and the message. */
@ObjectType()
export class ImportRowError {
  @ApiField('row', 'int', { description: 'The row in the file: 1 is the header, 2 the first record' }) row!: number;
  @ApiField('field', 'string') field!: string;
  @ApiField('message', 'text') message!: string;
  @ApiField('values', 'json', { description: "The row's values as sent" }) values!: Record<string, unknown>;
}

/** REST only: the error file's format. */
export class ImportErrorsArgs {
  @InputField('format', 'enum', { enum: ImportFileFormat, default: 'json', graphql: false, description: 'json, or csv: the failed rows as a file to fix and import again' })
  format?: ImportFileFormat;
}

@ArgsType()
export class ImportListArgs {
  @InputField('page', 'int', { check: (v) => (v >= 1 ? null : 'must be at least 1') }) page?: number;
  @InputField('limit', 'int', { check: (v) => (v >= 1 ? null : 'must be at least 1') }) limit?: number;
}

/** The failed rows of an import (GET /imports/{uuid}/errors?format=json). */
@ObjectType()
export class ImportErrorList {
  @ApiField('errors', 'object', { list: true, type: () => ImportRowError }) errors!: ImportRowError[];
}
