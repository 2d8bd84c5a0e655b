import { DeleteResult, ListArgs } from '../core/pagination';
import { Company } from '../modules/company/company.entity';
import { companyService } from '../modules/company/company.service';
import { Customer } from '../modules/customer/customer.entity';
import { CustomerCreateInput, CustomerListArgs, CustomerUpdateInput } from '../modules/customer/customer.inputs';
import { customerService } from '../modules/customer/customer.service';
import { Location } from '../modules/location/location.entity';
import { LocationCreateInput, LocationUpdateInput } from '../modules/location/location.inputs';
import { locationService } from '../modules/location/location.service';
import { User } from '../modules/user/user.entity';
import { userService } from '../modules/user/user.service';
import type { RouteDef } from './route';

// The REST surface: one row per route. Rows call the same services as the GraphQL resolvers.
export const routes: RouteDef[] = [
  { method: 'GET', path: '/companies/me', summary: 'The company of the API key', output: Company, call: (ctx) => companyService.me(ctx) },

  { method: 'GET', path: '/users', summary: 'List users', plural: 'users', query: ListArgs, output: User, call: (ctx, a) => userService.list(ctx, a.query) },
  { method: 'GET', path: '/users/:id', summary: 'Get a user', output: User, call: (ctx, a) => userService.get(ctx, a.params.id) },

  { method: 'GET', path: '/customers', summary: 'List customers', plural: 'customers', query: CustomerListArgs, output: Customer, call: (ctx, a) => customerService.list(ctx, a.query) },
  { method: 'GET', path: '/customers/:uuid', summary: 'Get a customer', output: Customer, call: (ctx, a) => customerService.get(ctx, a.params.uuid) },
  { method: 'POST', path: '/customers', summary: 'Create a customer', body: CustomerCreateInput, output: Customer, creates: true, call: (ctx, a) => customerService.create(ctx, a.body) },
  { method: 'PUT', path: '/customers/:uuid', summary: 'Update a customer', body: CustomerUpdateInput, output: Customer, call: (ctx, a) => customerService.update(ctx, a.params.uuid, a.body) },
  { method: 'DELETE', path: '/customers/:uuid', summary: 'Delete a customer', output: DeleteResult, call: (ctx, a) => customerService.remove(ctx, a.params.uuid) },

  { method: 'GET', path: '/locations', summary: 'List locations', plural: 'locations', query: ListArgs, output: Location, call: (ctx, a) => locationService.list(ctx, a.query) },
  { method: 'GET', path: '/locations/:uuid', summary: 'Get a location', output: Location, call: (ctx, a) => locationService.get(ctx, a.params.uuid) },
  { method: 'POST', path: '/locations', summary: 'Create a location', body: LocationCreateInput, output: Location, creates: true, call: (ctx, a) => locationService.create(ctx, a.body) },
  { method: 'PUT', path: '/locations/:uuid', summary: 'Update a location', body: LocationUpdateInput, output: Location, call: (ctx, a) => locationService.update(ctx, a.params.uuid, a.body) },
  { method: 'DELETE', path: '/locations/:uuid', summary: 'Delete a location (not the primary one)', output: DeleteResult, call: (ctx, a) => locationService.remove(ctx, a.params.uuid) },
];
