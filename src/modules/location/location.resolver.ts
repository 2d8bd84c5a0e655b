import { Resolver } from 'type-graphql';
import { CrudResolver } from '../../graphql/crud-resolver';
import { Location } from './location.entity';
import { LocationCreateInput, LocationListArgs, LocationUpdateInput } from './location.inputs';
import { locationService } from './location.service';

@Resolver(() => Location)
export class LocationResolver extends CrudResolver({
  resource: 'locations',
  entity: Location,
  single: 'location',
  plural: 'locations',
  service: locationService,
  create: LocationCreateInput,
  update: LocationUpdateInput,
  listArgs: LocationListArgs,
}) {}
