/**
 * The entity classes the context policy needs (names fixed by the external contract, defined once
 * in the contracts library). Only fund entities may ever inherit a ticker.
 */
export { FUND_ENTITIES, isClientEntity, isFundEntity, isMarketEntity } from '@cota/contracts';
