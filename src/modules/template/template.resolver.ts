import { Resolver } from 'type-graphql';
import { ListArgs } from '../../schema/pagination';
import { CrudResolver } from '../../graphql/crud-resolver';
import { Template } from './template.entity';
import { TemplateCreateInput, TemplateUpdateInput } from './template.inputs';
import { templateService } from './template.service';

@Resolver(() => Template)
export class TemplateResolver extends CrudResolver({
  resource: 'templates',
  entity: Template,
  single: 'template',
  plural: 'templates',
  service: templateService,
  create: TemplateCreateInput,
  update: TemplateUpdateInput,
  listArgs: ListArgs,
}) {}
