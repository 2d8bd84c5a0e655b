import type { Request } from 'express';
import { validateInput } from '../../schema/validation';
import { bodyToInput } from '../../rest/case-map';
import { parseMultipart } from '../../rest/multipart';
import { restFieldsOf } from '../../schema/fields';
import { ALLOWED_TYPES_TEXT, discardStaged, MAX_FILES } from '../../storage/staging';
import { stagingDir, storageSettings } from '../../storage/storage';
import { JobPhotoType } from './job-photo.entity';
import { PhotoUploadArgs } from './job-photo.inputs';
import type { UploadSource } from './job-photo.service';

// Multipart form fields of POST /jobs/{job_uuid}/photos (documented in OpenAPI through the route row).
const PHOTO_FILE_FIELDS = ['photos', 'photo', 'file'];
const TEXT_FIELDS = restFieldsOf(PhotoUploadArgs).map((f) => f.restName); // photo_type, taken_at
const file = { type: 'string', format: 'binary' };
const limits = `${ALLOWED_TYPES_TEXT}, judged by content; at most ${MAX_FILES} files per request and MAX_PHOTO_BYTES (default 15 MiB) per file`;
export const PHOTO_MULTIPART_FIELDS: Record<string, Record<string, unknown>> = {
  photos: { type: 'array', items: file, description: `One or more image files (${limits})` },
  photo: { ...file, description: 'Also accepted as the files field' },
  file: { ...file, description: 'Also accepted as the files field' },
  photo_type: { type: 'string', enum: Object.values(JobPhotoType), default: JobPhotoType.DURING },
  taken_at: { type: 'string', format: 'date-time', description: 'RFC 3339 with an offset' },
};

/** The upload source of a multipart REST request. */
export function restUploadSource(req: Request): UploadSource {
  return {
    filesField: 'photos',
    async receive() {
      const { fields, files } = await parseMultipart(req, {
        fileFields: PHOTO_FILE_FIELDS,
        textFields: TEXT_FIELDS,
        maxBytes: storageSettings().maxPhotoBytes,
        dir: stagingDir(),
      });
      try {
        // An empty form field means "not given" (HTML forms send empty inputs).
        const sent = Object.fromEntries(Object.entries(fields).filter(([, v]) => v.trim() !== ''));
        const args = bodyToInput(PhotoUploadArgs, sent);
        await validateInput(args, 'rest');
        return { args, files };
      } catch (err) {
        // The caller discards only what receive() returned; here nothing was returned yet.
        await discardStaged(files);
        throw err;
      }
    },
    discard() {
      // Refused before the body was read: let Node drain it so the client gets the answer.
      req.resume();
    },
  };
}
