import { InputType } from 'type-graphql';
import { InputField } from '../../schema/fields';

@InputType('CompanySettingsInput')
export class CompanySettingsInput {
  @InputField('prevent_double_booking', 'boolean', { description: 'Turning it on fails with 409 SCHEDULE_CONFLICT while two active visits of one user overlap' })
  preventDoubleBooking?: boolean;
}
