import { Arg, Ctx, FieldResolver, Mutation, Query, Resolver, Root } from 'type-graphql';
import { Needs } from '../../schema/access';
import type { RequestContext } from '../../data/context';
import { DeleteResult } from '../../schema/pagination';
import { UUIDScalar } from '../../schema/scalars';
import { Job } from '../job/job.entity';
import { JobSchedule } from './schedule.entity';
import { JobScheduleInput, SchedulePreview, SchedulePreviewInput } from './schedule.inputs';
import { scheduleService } from './schedule.service';

@Resolver(() => Job)
export class JobScheduleResolver {
  @FieldResolver(() => JobSchedule, { nullable: true, description: "The job's schedule (recurring visits), if it has one" })
  async schedule(@Root() job: Job, @Ctx() ctx: RequestContext): Promise<JobSchedule | null> {
    // Batched: a page of jobs reads their schedules in one statement (live ones only).
    const [s] = await ctx.loaders.children(JobSchedule, 'job', job.uuid, 1);
    return s ?? null;
  }

  @Needs('jobs:write')
  @Mutation(() => JobSchedule, { description: "Set the job's schedule; its visits to the horizon exist when this answers" })
  setJobSchedule(@Ctx() ctx: RequestContext, @Arg('jobUuid', () => UUIDScalar) jobUuid: string, @Arg('input', () => JobScheduleInput) input: JobScheduleInput): Promise<JobSchedule> {
    return scheduleService.set(ctx, jobUuid, input);
  }

  @Needs('jobs:write')
  @Mutation(() => DeleteResult, { description: 'Delete the schedule: future generated visits not changed by hand go with it' })
  deleteJobSchedule(@Ctx() ctx: RequestContext, @Arg('jobUuid', () => UUIDScalar) jobUuid: string): Promise<{ message: string }> {
    return scheduleService.remove(ctx, jobUuid);
  }

  @Needs('jobs:read')
  @Query(() => SchedulePreview, { description: 'The next occurrences of a schedule, without writing' })
  previewSchedule(@Ctx() ctx: RequestContext, @Arg('input', () => SchedulePreviewInput) input: SchedulePreviewInput): Promise<SchedulePreview> {
    return scheduleService.preview(ctx, input);
  }
}
