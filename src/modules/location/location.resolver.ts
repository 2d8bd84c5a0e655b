import { Resolver } from 'type-graphql';
import { ListArgs } from '../../schema/pagination';
import { CrudResolver } from '../../graphql/crud-resolver';
import { Location } from './location.entity';
import { LocationCreateInput, LocationUpdateInput } from './location.inputs';
import { locationService } from './location.service';

@Resolver(() => Location)
export class LocationResolver extends CrudResolver({
  entity: Location,
  single: 'location',
  plural: 'locations',
  service: locationService,
  create: LocationCreateInput,
  update: LocationUpdateInput,
  listArgs: ListArgs,
}) {}
