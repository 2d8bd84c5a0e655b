import { InputType } from 'type-graphql';
import { InputField } from '../../schema/fields';
import { PartialInput } from '../../schema/inputs';
import { UserRole } from './user.entity';

@InputType('UserCreateInput')
export class UserCreateInput {
  @InputField('first_name', 'string', { required: true }) firstName!: string;
  @InputField('last_name', 'string', { required: true }) lastName!: string;
  @InputField('email', 'email', { required: true, description: 'Unique among the company’s users' }) email!: string;
  @InputField('role', 'enum', { enum: UserRole, default: 'office', description: 'owner, admin, office or technician (docs/people-and-access.md)' }) role?: UserRole;
  @InputField('phone', 'phone', { nullable: true }) phone?: string | null;
}

@InputType('UserUpdateFields')
class UserUpdateFields extends UserCreateInput {
  @InputField('active', 'boolean', { description: 'false deactivates (as DELETE does), true reactivates' }) active?: boolean;
}

export const UserUpdateInput = PartialInput(UserUpdateFields, 'UserUpdateInput');
export type UserUpdateInput = InstanceType<typeof UserUpdateInput>;
