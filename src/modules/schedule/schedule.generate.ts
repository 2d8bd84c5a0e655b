import type { EntityManager } from '@mikro-orm/postgresql';
import { companyTodayIn } from '../company/company.rules';
import { localDay, localInstant } from '../visit/visit.time';
import { addDays, occurrenceDates, parseRule } from './schedule.rrule';

// Visits of a schedule (docs/recurring-work.md), written set-based: one statement inserts every
// occurrence of a range (730 of a daily schedule as cheaply as a few), skipping the occurrences
// that already have a visit — live, changed by hand, completed, or deleted by hand (skipped for
// good) — through the unique (schedule_uuid, occurrence_date). Users booked elsewhere at an
// occurrence are left off it and listed in its schedule_conflicts. The visits' events carry the
// system as actor, in the request's transaction as in the background task's.

export interface ScheduleShape {
  uuid: string;
  companyUuid: string;
  rrule: string;
  startsOn: string;
  startTime: string | null;
  durationMinutes: number | null;
  allDay: boolean;
  timezone: string;
  horizonDays: number;
}

export interface Occurrence {
  occurrenceDate: string;
  startsAt: Date;
  endsAt: Date;
}

/** The occurrences in [from, through] with their instants: local times in the schedule's zone. */
export function occurrencesOf(s: Omit<ScheduleShape, 'uuid' | 'companyUuid' | 'horizonDays'>, from: string, through: string, limit = Infinity): Occurrence[] {
  const dates = occurrenceDates(parseRule(s.rrule, s.startsOn), from < s.startsOn ? s.startsOn : from, through, limit);
  return dates.map((d) => {
    if (s.allDay || !s.startTime) return { occurrenceDate: d, ...localDay(d, s.timezone) };
    // A time skipped by a spring-forward change moves forward by the gap; a repeated one takes its first instant.
    const startsAt = localInstant(d, s.timezone, s.startTime, 'earlier');
    return { occurrenceDate: d, startsAt, endsAt: new Date(startsAt.getTime() + (s.durationMinutes ?? 60) * 60_000) };
  });
}

export const GENERATE_SQL = `with occ as (
    select * from unnest(?::date[], ?::timestamptz[], ?::timestamptz[]) as o(occurrence_date, starts_at, ends_at)
  ), s as (
    select * from job_schedules where uuid = ? and company_uuid = ? and deleted_at is null
  ), c as (
    select o.occurrence_date, u.id as user_id, u.n,
      (select a.visit_uuid from visit_assignments a where a.company_uuid = s.company_uuid and a.user_id = u.id and a.active
        and a.period && tstzrange(o.starts_at, o.ends_at, '[)') limit 1) as busy
    from occ o cross join s cross join unnest(s.assigned_user_ids) with ordinality as u(id, n)
  )
  insert into visits (uuid, company_uuid, job_uuid, title, instructions, status, starts_at, ends_at, all_day, visit_date,
    assigned_user_ids, created_at, updated_at, schedule_uuid, occurrence_date, schedule_exception, schedule_conflicts)
  select gen_random_uuid(), s.company_uuid, s.job_uuid, s.title, s.instructions, 'Scheduled', o.starts_at, o.ends_at, s.all_day, o.occurrence_date,
    coalesce((select array_agg(c.user_id order by c.n) from c where c.occurrence_date = o.occurrence_date and c.busy is null), '{}'),
    now(), now(), s.uuid, o.occurrence_date, false,
    coalesce((select jsonb_agg(jsonb_build_object('user_id', c.user_id, 'visit_uuid', c.busy) order by c.n) from c where c.occurrence_date = o.occurrence_date and c.busy is not null), '[]')
  from occ o cross join s
  on conflict (schedule_uuid, occurrence_date) where schedule_uuid is not null do nothing`;

const arrayLiteral = (values: string[]) => `{${values.map((v) => `"${v}"`).join(',')}}`;

type Run = (sql: string, params: unknown[]) => Promise<unknown>;

/** A runner on the EntityManager's transaction (or connection). */
export const runner = (em: EntityManager): Run => (sql, params) => em.getConnection().execute(sql, params, 'all', em.getTransactionContext());

/**
 * Writes the visits of every occurrence from max(starts_on, today, generated_through + 1) to
 * today + horizon_days - 1, and moves generated_through there. Runs in the caller's transaction.
 */
export async function generateVisits(run: Run, s: ScheduleShape & { generatedThrough: string | null }, now = new Date()): Promise<{ count: number; through: string }> {
  const today = companyTodayIn(s.timezone, now);
  // The horizon: horizon_days days from today, today included (730 days: 730 daily visits).
  const through = addDays(today, s.horizonDays - 1);
  let from = today;
  if (s.generatedThrough && addDays(s.generatedThrough, 1) > from) from = addDays(s.generatedThrough, 1);
  const occ = occurrencesOf(s, from, through);
  if (occ.length) {
    // The generated visits are the system's doing, whoever set the schedule (then the actor is restored).
    const [{ actor }] = (await run(`select current_setting('fsc.actor', true) as actor`, [])) as Array<{ actor: string | null }>;
    await run(`select set_config('fsc.actor', '', true)`, []);
    await run(GENERATE_SQL, [
      arrayLiteral(occ.map((o) => o.occurrenceDate)),
      arrayLiteral(occ.map((o) => o.startsAt.toISOString())),
      arrayLiteral(occ.map((o) => o.endsAt.toISOString())),
      s.uuid,
      s.companyUuid,
    ]);
    await run(`select set_config('fsc.actor', ?, true)`, [actor ?? '']);
  }
  await run(`update job_schedules set generated_through = ? where uuid = ? and company_uuid = ?`, [through, s.uuid, s.companyUuid]);
  return { count: occ.length, through };
}
