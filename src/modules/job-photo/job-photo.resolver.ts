import type { Awaitable } from '../../data/loaders';
import { Needs } from '../../schema/access';
import { RequireAddon } from '../../auth/addons';
import { Arg, Args, Ctx, FieldResolver, Mutation, Query, Resolver, Root } from 'type-graphql';
import GraphQLUpload from 'graphql-upload/GraphQLUpload.mjs';
import type { FileUpload } from 'graphql-upload/Upload.mjs';
import type { RequestContext } from '../../data/context';
import { DeleteResult, Page, PageType } from '../../schema/pagination';
import { UUIDScalar } from '../../schema/scalars';
import { AppError } from '../../errors/app-error';
import { discardStaged, MAX_FILES, StagedFile, stageFile } from '../../storage/staging';
import { stagingDir, storageSettings } from '../../storage/storage';
import { Job } from '../job/job.entity';
import { User } from '../user/user.entity';
import { JobPhoto } from './job-photo.entity';
import { PhotoListArgs, PhotoUploadArgs, PhotoUploadResult } from './job-photo.inputs';
import { jobPhotoService, UploadSource } from './job-photo.service';

const JobPhotoPage = PageType(JobPhoto);

/** The upload source of a GraphQL multipart request: files read one after the other. */
function graphqlUploadSource(files: Array<Promise<FileUpload>>, args: PhotoUploadArgs): UploadSource {
  return {
    filesField: 'files',
    async receive() {
      if (files.length > MAX_FILES) throw AppError.field('files', `must hold at most ${MAX_FILES} files`);
      const staged: StagedFile[] = [];
      try {
        for (let i = 0; i < files.length; i++) {
          // The Upload scalar resolves to a promise of the file once its part arrives.
          const upload = await files[i];
          if (!upload) throw AppError.field(`files[${i}]`, 'is not a file');
          staged.push(await stageFile(() => upload.createReadStream(), { dir: stagingDir(), field: `files[${i}]`, fileName: upload.filename, maxBytes: storageSettings().maxPhotoBytes }));
        }
      } catch (err) {
        await discardStaged(staged);
        throw err;
      }
      return { args, files: staged };
    },
    discard() {
      // graphql-upload releases unread files when the response ends.
    },
  };
}

@Resolver(() => JobPhoto)
export class JobPhotoResolver {
  @Needs('photos:read')
  @Query(() => JobPhotoPage, { name: 'jobPhotos' })
  list(@Ctx() ctx: RequestContext, @Arg('jobUuid', () => UUIDScalar) jobUuid: string, @Args(() => PhotoListArgs) args: PhotoListArgs): Promise<Page<JobPhoto>> {
    return jobPhotoService.list(ctx, jobUuid, args);
  }

  @Needs('photos:read')
  @Query(() => JobPhoto, { name: 'jobPhoto' })
  one(@Ctx() ctx: RequestContext, @Arg('jobUuid', () => UUIDScalar) jobUuid: string, @Arg('uuid', () => UUIDScalar) uuid: string): Promise<JobPhoto> {
    return jobPhotoService.get(ctx, jobUuid, uuid);
  }

  @Needs('photos:write')
  @Mutation(() => PhotoUploadResult, { name: 'uploadJobPhotos' })
  @RequireAddon('job_photos')
  upload(
    @Ctx() ctx: RequestContext,
    @Arg('jobUuid', () => UUIDScalar) jobUuid: string,
    @Arg('files', () => [GraphQLUpload]) files: Array<Promise<FileUpload>>,
    @Args(() => PhotoUploadArgs) args: PhotoUploadArgs,
  ): Promise<{ photos: JobPhoto[] }> {
    return jobPhotoService.upload(ctx, jobUuid, graphqlUploadSource(files, args));
  }

  @Needs('photos:write')
  @Mutation(() => DeleteResult, { name: 'deleteJobPhoto' })
  remove(@Ctx() ctx: RequestContext, @Arg('jobUuid', () => UUIDScalar) jobUuid: string, @Arg('uuid', () => UUIDScalar) uuid: string): Promise<{ message: string }> {
    return jobPhotoService.remove(ctx, jobUuid, uuid);
  }

  @Needs('photos:write')
  @Mutation(() => JobPhoto, { name: 'restoreJobPhoto' })
  restore(@Ctx() ctx: RequestContext, @Arg('jobUuid', () => UUIDScalar) jobUuid: string, @Arg('uuid', () => UUIDScalar) uuid: string): Promise<JobPhoto> {
    return jobPhotoService.restore(ctx, jobUuid, uuid);
  }

  @FieldResolver(() => User, { nullable: true })
  user(@Root() photo: JobPhoto, @Ctx() ctx: RequestContext): Awaitable<User | null> {
    return ctx.loaders.one(User, photo.userId);
  }

  @FieldResolver(() => Job, { nullable: true })
  job(@Root() photo: JobPhoto, @Ctx() ctx: RequestContext): Awaitable<Job | null> {
    return ctx.loaders.one(Job, photo.jobUuid);
  }
}
