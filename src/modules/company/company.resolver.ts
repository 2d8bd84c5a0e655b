import { Ctx, Query, Resolver } from 'type-graphql';
import type { RequestContext } from '../../core/context';
import { Company } from './company.entity';
import { companyService } from './company.service';

@Resolver(() => Company)
export class CompanyResolver {
  @Query(() => Company, { description: 'The company of the API key' })
  company(@Ctx() ctx: RequestContext): Promise<Company> {
    return companyService.me(ctx);
  }
}
