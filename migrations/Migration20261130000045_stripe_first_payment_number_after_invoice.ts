import { Migration } from '@mikro-orm/migrations';
import { STRIPE_FIRST_PAYMENT_0044 } from './Migration20261130000044_stripe_first_payment';

// stripe_first_payment (migration 0044; docs/payments.md, "Speed") takes the company's payment number
// after the invoice's update: the invoice is written first, then the number, the payment and the
// job, so that the number's row lock, which every payment of the company waits for until the commit,
// is no longer held for the invoice's write (the largest, with its event rows). The job stays after
// the number, the order of every transaction that takes one. The events of its transaction are so
// written in that order (invoice, payment, job: docs/events.md). The payment is inserted by a
// statement planned once (every column of the table from the entity's values) instead of one built
// at each call.
export class Migration20261130000045_stripe_first_payment_number_after_invoice extends Migration {
  async up(): Promise<void> {
    this.addSql(`create or replace function stripe_first_payment(p_company uuid, p_event text, p_type text, p_account text, p_actor text, p_invoice uuid, p_payment jsonb, p_now timestamptz)
      returns text language plpgsql as $$
      declare
        v_amount numeric := (p_payment->>'amount')::numeric;
        v_completed boolean := p_payment->>'status' = 'Completed';
        v_invoice record;
        v_others numeric;
        v_paid numeric;
        v_balance numeric;
        v_status text;
        v_number bigint;
        v_job record;
        v_counts record;
        v_paid_at timestamptz;
      begin
        -- The account is the company's (the caller may know it from an earlier read).
        if not exists (select 1 from payment_settings s where s.company_uuid = p_company and s.stripe_account_id = p_account) then
          raise exception 'not the account of the company' using errcode = 'FS001';
        end if;
        -- The actor of the events the triggers write (src/modules/event/event.actor.ts).
        perform set_config('fsc.actor', p_actor, true);
        -- The event once: a concurrent delivery of the same id waits here for the first to end.
        insert into stripe_events (id, type, account, company_uuid, outcome) values (p_event, p_type, p_account, p_company, 'handled')
          on conflict (id) do nothing;
        if not found then
          return 'duplicate';
        end if;
        -- The invoice's row lock, as every payment change takes it first.
        select i.customer_uuid, i.job_uuid, i.deleted_at, i.status, i.total_amount, i.paid_amount, i.balance_amount into v_invoice
          from invoices i where i.uuid = p_invoice and i.company_uuid = p_company for update;
        if not found or v_invoice.deleted_at is not null
           or exists (select 1 from payments p where p.company_uuid = p_company and p.transaction_id = p_payment->>'transaction_id' and p.payment_details->>'source' = 'stripe') then
          raise exception 'not the first payment of a live invoice' using errcode = 'FS001';
        end if;
        -- completedSum: the invoice's other Completed payments, under the lock.
        select coalesce(sum(p.amount - p.refunded_amount), 0) into v_others
          from payments p where p.company_uuid = p_company and p.deleted_at is null and p.invoice_uuid = p_invoice and p.status = 'Completed';
        if v_completed and v_amount > v_invoice.total_amount - v_others then
          raise exception 'beyond the balance' using errcode = 'FS001';
        end if;
        -- settle: balance and status from the paid amount (a Draft keeps its status).
        v_paid := v_others + case when v_completed then v_amount else 0 end;
        v_balance := v_invoice.total_amount - v_paid;
        v_status := v_invoice.status;
        if v_status <> 'Draft' then
          if v_invoice.total_amount > 0 and v_balance = 0 then
            v_status := 'Paid';
          elsif v_balance > 0 then
            v_status := 'Pending';
          end if;
        end if;
        -- The invoice first; then the number and the payment; then the job.
        if v_paid <> v_invoice.paid_amount or v_balance <> v_invoice.balance_amount or v_status <> v_invoice.status then
          update invoices set paid_amount = v_paid, balance_amount = v_balance, status = v_status, updated_at = p_now
            where uuid = p_invoice and company_uuid = p_company;
        end if;
        -- The company's next payment number, then the payment (the invoice's customer's), after the
        -- invoice's update: the number's row lock, which every payment of the company waits for
        -- until the commit, is so held for this insert, the job's sync and the commit. The job comes
        -- after the number, as in every transaction that takes one (the ledger, a payment made
        -- through the API: their syncJobPaidAt follows their nextSequence): the other order could
        -- deadlock with them. The payment's columns are the payments table's, in its order: every
        -- one from the entity's values (insertObject), none left to a default.
        insert into company_sequences (company_uuid, name, value) values (p_company, 'payment_number', 1)
          on conflict (company_uuid, name) do update set value = company_sequences.value + 1
          returning value into v_number;
        insert into payments
          select * from jsonb_populate_record(null::payments, p_payment || jsonb_build_object('payment_number', v_number::text, 'customer_uuid', v_invoice.customer_uuid));
        -- syncJobPaidAt: the job's row lock, then its invoices counted; paid_at while all (at least one) are Paid.
        if v_invoice.job_uuid is not null then
          select j.paid_at into v_job from jobs j where j.uuid = v_invoice.job_uuid and j.company_uuid = p_company for update;
          if found then
            select count(*) as total, count(*) filter (where i.status = 'Paid') as paid into v_counts
              from invoices i where i.company_uuid = p_company and i.deleted_at is null and i.job_uuid = v_invoice.job_uuid and i.status <> 'Draft';
            v_paid_at := case when v_counts.total > 0 and v_counts.total = v_counts.paid then coalesce(v_job.paid_at, p_now) end;
            if v_paid_at is distinct from v_job.paid_at then
              update jobs set paid_at = v_paid_at, updated_at = p_now where uuid = v_invoice.job_uuid and company_uuid = p_company;
            end if;
          end if;
        end if;
        return 'handled';
      end $$`);
  }

  async down(): Promise<void> {
    this.addSql(STRIPE_FIRST_PAYMENT_0044.replace('create function', 'create or replace function'));
  }
}
