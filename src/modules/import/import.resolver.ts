import GraphQLUpload from 'graphql-upload/GraphQLUpload.mjs';
import type { FileUpload } from 'graphql-upload/Upload.mjs';
import { Arg, Args, Ctx, Mutation, Query, Resolver } from 'type-graphql';
import type { RequestContext } from '../../data/context';
import { AppError } from '../../errors/app-error';
import { Needs } from '../../schema/access';
import { Page, PageType } from '../../schema/pagination';
import { UUIDScalar } from '../../schema/scalars';
import { cleanFileName } from '../../storage/staging';
import { stageImportFile } from './import.file';
import { importService } from './import.service';
import { Import, ImportCreateInput, ImportListArgs } from './import.types';

const ImportPage = PageType(Import);

// GraphQL of imports (docs/import-export.md): the same service as the REST rows; the file comes
// as a multipart request's Upload (graphql-upload).
@Resolver(() => Import)
export class ImportResolver {
  @Needs('imports:read')
  @Query(() => ImportPage, { name: 'imports' })
  list(@Ctx() ctx: RequestContext, @Args(() => ImportListArgs) args: ImportListArgs): Promise<Page<Import>> {
    return importService.list(ctx, args);
  }

  @Needs('imports:read')
  @Query(() => Import, { name: 'import' })
  one(@Ctx() ctx: RequestContext, @Arg('uuid', () => UUIDScalar) uuid: string): Promise<Import> {
    return importService.get(ctx, uuid);
  }

  @Needs('imports:write')
  @Mutation(() => Import, { description: "Queues an import of a CSV or NDJSON file (a multipart request); needs the resource's write scope too" })
  async createImport(@Ctx() ctx: RequestContext, @Arg('file', () => GraphQLUpload) file: Promise<FileUpload>, @Args(() => ImportCreateInput) input: ImportCreateInput): Promise<Import> {
    const upload = await file;
    if (!upload) throw AppError.field('file', 'is not a file');
    return importService.create(ctx, Object.assign(new ImportCreateInput(), input), {
      field: 'file',
      fileName: cleanFileName(upload.filename),
      stage: () => stageImportFile(upload.createReadStream(), 'file'),
    });
  }

  @Needs('imports:write')
  @Mutation(() => Import, { description: 'Stops a queued or running import after its batch in progress' })
  cancelImport(@Ctx() ctx: RequestContext, @Arg('uuid', () => UUIDScalar) uuid: string): Promise<Import> {
    return importService.cancel(ctx, uuid);
  }
}
