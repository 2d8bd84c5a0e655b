import { ApiKey } from '../modules/api-key/api-key.entity';
import { Company } from '../modules/company/company.entity';
import { Customer } from '../modules/customer/customer.entity';
import { Estimate } from '../modules/estimate/estimate.entity';
import { Invoice } from '../modules/invoice/invoice.entity';
import { Job } from '../modules/job/job.entity';
import { JobPhoto } from '../modules/job-photo/job-photo.entity';
import { Location } from '../modules/location/location.entity';
import { Payment } from '../modules/payment/payment.entity';
import { Template } from '../modules/template/template.entity';
import { User } from '../modules/user/user.entity';
import { Visit } from '../modules/visit/visit.entity';
import { JobSchedule } from '../modules/schedule/schedule.entity';
import { RecurringInvoice } from '../modules/recurring/recurring.entity';
import { CustomFieldDefinition } from '../modules/custom-field/custom-field.entity';
import { keepDeclaredAccessors } from '../data/record';

// Every entity the ORM knows; a new module adds its entities here.
export const entities = [Company, User, ApiKey, Customer, Location, Job, JobPhoto, Template, Estimate, Invoice, Payment, Visit, JobSchedule, RecurringInvoice, CustomFieldDefinition];

// Before the ORM wraps them (see keepDeclaredAccessors).
keepDeclaredAccessors(entities);
