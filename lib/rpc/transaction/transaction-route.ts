/** The URL segment of ZenStack's transaction routes, which no model's URL name can take (`$` is not in one). */
export const TRANSACTION_SEGMENT = '$transaction';
/** The one transaction kind served, as ZenStack's clients name it. */
export const SEQUENTIAL = 'sequential';
/** The sequential transaction route, relative to the RPC mount; registered before `:model/:operation`. */
export const RPC_TRANSACTION_ROUTE = `${TRANSACTION_SEGMENT}/${SEQUENTIAL}`;
