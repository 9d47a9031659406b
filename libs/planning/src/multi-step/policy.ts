import { z } from 'zod';

const Measure = z
  .object({
    measure: z.string().min(1),
    agg: z.enum(['value', 'total', 'variation', 'accumulated']),
    label: z.string().min(1).max(80),
    better: z.enum(['higher', 'lower', 'neither']),
  })
  .strict();

/** policies/plans.yaml: the shapes of multi-step answers the planner builds without a model. */
export const PlansPolicySchema = z
  .object({
    version: z.literal(1),
    dimensions: z.record(z.string().regex(/^[a-z_]+$/), z.object({ words: z.array(z.string().min(1)).min(1), measures: z.array(Measure).min(1).max(3) }).strict()),
    min_dimensions: z.number().int().min(1).max(6),
    income_focus: z.array(z.string().min(1)),
    projection: z.object({ words: z.array(z.string().min(1)).min(1) }).strict(),
    screen: z.object({ scope_words: z.array(z.string().min(1)).min(1), min_conditions: z.number().int().min(1).max(6) }).strict(),
    benchmark: z
      .object({
        rates: z.record(z.string().regex(/^[A-Z]+$/), z.array(z.string().min(1)).min(1)),
        words: z.array(z.string().min(1)).min(1),
        months: z.number().int().min(1).max(120),
      })
      .strict(),
  })
  .strict();
export type PlansPolicy = z.infer<typeof PlansPolicySchema>;
