import { RequireAddon } from '../../auth/addons';
import { Needs } from '../../schema/access';
import { Arg, Ctx, Mutation, Query, Resolver } from 'type-graphql';
import type { RequestContext } from '../../data/context';
import { NumberingUpdateInput } from './numbering.inputs';
import { numberingService } from './numbering.service';
import { NumberingSettings } from './numbering.types';

@Resolver(() => NumberingSettings)
export class NumberingResolver {
  @Needs('numbering:read')
  @Query(() => NumberingSettings, { description: 'Invoice and estimate numbering settings' })
  numbering(@Ctx() ctx: RequestContext): Promise<NumberingSettings> {
    return numberingService.get(ctx);
  }

  @Needs('numbering:write')
  @Mutation(() => NumberingSettings, { description: 'Needs the custom_numbering add-on' })
  @RequireAddon('custom_numbering')
  updateNumbering(@Ctx() ctx: RequestContext, @Arg('input', () => NumberingUpdateInput) input: NumberingUpdateInput): Promise<NumberingSettings> {
    return numberingService.update(ctx, input);
  }
}
