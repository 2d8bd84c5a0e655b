import type { RequestContext } from '../../data/context';
import { findActive, listPage, restoreRecord, softDelete } from '../../data/crud';
import { requireAddon } from '../../auth/addons';
import { AppError } from '../../errors/app-error';
import { discardStaged, StagedFile } from '../../storage/staging';
import { newPhotoKey, photoStorage, storageFor, storageSettings } from '../../storage/storage';
import { Job } from '../job/job.entity';
import { JobPhoto, JobPhotoType } from './job-photo.entity';
import { PhotoListArgs, PhotoUploadArgs } from './job-photo.inputs';

/** Where an upload's files and fields come from (a multipart REST body, GraphQL Upload variables). */
export interface UploadSource {
  /** Name of the files field in this surface's errors. */
  filesField: string;
  /** Reads and checks every file into the staging area, and the validated text fields. */
  receive(): Promise<{ args: PhotoUploadArgs; files: StagedFile[] }>;
  /** Called when the upload is refused before or after receive(). */
  discard(): void;
}

/** The absolute base of links: PUBLIC_URL, else what the request was addressed to. */
function baseUrl(ctx: RequestContext): string {
  const config = storageSettings();
  return config.publicUrl ?? ctx.baseUrl ?? `http://localhost:${config.port}`;
}

/** Fills photo_url: a fresh signed, expiring link per response. */
export async function withPhotoUrls(ctx: RequestContext, photos: JobPhoto[]): Promise<JobPhoto[]> {
  const base = baseUrl(ctx);
  await Promise.all(photos.map(async (p) => (p.photoUrl = await storageFor(p.storageBackend).signedUrl(p.storageKey, base))));
  return photos;
}

const job = (ctx: RequestContext, jobUuid: string) => findActive(ctx, Job, jobUuid, 'Job');

async function findPhoto(ctx: RequestContext, jobUuid: string, uuid: string): Promise<JobPhoto> {
  const parent = await job(ctx, jobUuid);
  const photo = await findActive(ctx, JobPhoto, uuid, 'Photo');
  if (photo.job.uuid !== parent.uuid) throw AppError.notFound('Photo');
  return photo;
}

export const jobPhotoService = {
  async list(ctx: RequestContext, jobUuid: string, args: PhotoListArgs) {
    const parent = await job(ctx, jobUuid);
    const page = await listPage(ctx, JobPhoto, args, (w) => {
      w.equals('job', parent.uuid);
      if (args.photoType?.length) w.oneOf('photoType', args.photoType);
    });
    await withPhotoUrls(ctx, page.items);
    return page;
  },

  async get(ctx: RequestContext, jobUuid: string, uuid: string) {
    const [photo] = await withPhotoUrls(ctx, [await findPhoto(ctx, jobUuid, uuid)]);
    return photo;
  },

  /**
   * Stores every file of the request or none: the add-on and the job are checked before anything
   * is read; files are staged and checked; only then moved to storage; on any failure the files
   * already stored are removed again.
   */
  async upload(ctx: RequestContext, jobUuid: string, source: UploadSource): Promise<{ photos: JobPhoto[] }> {
    const storage = photoStorage();
    let staged: StagedFile[] = [];
    const stored: string[] = [];
    try {
      requireAddon(ctx, 'job_photos');
      const parent = await job(ctx, jobUuid);
      const { args, files } = await source.receive();
      staged = files;
      if (!files.length) throw AppError.field(source.filesField, 'must hold at least one file');
      const photos: JobPhoto[] = [];
      for (const file of files) {
        const key = newPhotoKey(ctx.company.uuid, parent.uuid, file.ext);
        await storage.putFile(key, file.path, file.size, file.mime);
        stored.push(key);
        photos.push(
          Object.assign(new JobPhoto(), {
            company: ctx.company,
            job: parent,
            user: ctx.user,
            storageKey: key,
            storageBackend: storage.backend,
            photoType: args.photoType ?? JobPhotoType.DURING,
            takenAt: args.takenAt ?? null,
            fileName: file.fileName,
            fileSize: file.size,
            mimeType: file.mime,
          }),
        );
      }
      ctx.em.persist(photos);
      await ctx.em.flush();
      return { photos: await withPhotoUrls(ctx, photos) };
    } catch (err) {
      source.discard();
      await Promise.allSettled(stored.map((key) => storage.remove(key)));
      throw err;
    } finally {
      await discardStaged(staged);
    }
  },

  // Soft delete only: the file stays in storage (docs/jobs-and-photos.md).
  async remove(ctx: RequestContext, jobUuid: string, uuid: string) {
    return softDelete(ctx, await findPhoto(ctx, jobUuid, uuid), 'Photo');
  },

  // Under the path's job, which must be live (404 otherwise, as on every photo route); the file never left storage.
  async restore(ctx: RequestContext, jobUuid: string, uuid: string) {
    const parent = await job(ctx, jobUuid);
    const photo = await restoreRecord(ctx, JobPhoto, uuid, 'Photo', { match: (p) => p.job.uuid === parent.uuid });
    const [restored] = await withPhotoUrls(ctx, [photo]);
    return restored;
  },
};
