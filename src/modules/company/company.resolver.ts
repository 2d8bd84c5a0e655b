import { Arg, Ctx, Mutation, Query, Resolver } from 'type-graphql';
import { Needs } from '../../schema/access';
import type { RequestContext } from '../../data/context';
import { Company } from './company.entity';
import { CompanySettingsInput } from './company.inputs';
import { companyService } from './company.service';

@Resolver(() => Company)
export class CompanyResolver {
  @Needs('company:read')
  @Query(() => Company, { description: 'The company of the API key' })
  company(@Ctx() ctx: RequestContext): Promise<Company> {
    return companyService.me(ctx);
  }

  @Needs('company:write')
  @Mutation(() => Company, { description: "Change the company's settings" })
  updateCompanySettings(@Ctx() ctx: RequestContext, @Arg('input', () => CompanySettingsInput) input: CompanySettingsInput): Promise<Company> {
    return companyService.updateSettings(ctx, input);
  }
}
