import { ArgsType, ObjectType } from 'type-graphql';
import { ApiField, InputField } from '../../schema/fields';
import { ListArgs } from '../../schema/pagination';
import { JobPhoto, JobPhotoType } from './job-photo.entity';

/** The text fields of an upload, shared by the multipart REST route and uploadJobPhotos. */
@ArgsType()
export class PhotoUploadArgs {
  @InputField('photo_type', 'enum', { enum: JobPhotoType, default: 'during' }) photoType?: JobPhotoType;
  @InputField('taken_at', 'datetime', { nullable: true }) takenAt?: Date | null;
}

@ArgsType()
export class PhotoListArgs extends ListArgs {
  @InputField('photo_type', 'enum', { enum: JobPhotoType, list: true, description: 'One type or several (comma-separated in REST)' })
  photoType?: JobPhotoType[];
}

@ObjectType('UploadJobPhotosResult')
export class PhotoUploadResult {
  @ApiField('photos', 'object', { type: () => JobPhoto, list: true }) photos!: JobPhoto[];
}

