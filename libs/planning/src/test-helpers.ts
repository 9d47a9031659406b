import { dataDir } from '@cota/config';
import { readFunds } from './fund-list';
import type { NamedFund } from './fund-names';
import { Planner } from './planner';
import { PlanningPolicies, loadPlanningPolicies } from './policies';

let policies: PlanningPolicies | undefined;
let funds: NamedFund[] | undefined;

/** The repo's policies and the fund list read in place from the data folder (cached per test file). */
export function realPlanner(opts: { withFunds?: boolean } = {}): Planner {
  policies ??= loadPlanningPolicies();
  funds ??= readFunds(dataDir());
  return new Planner({ policies, funds: opts.withFunds === false ? null : funds });
}
