/** A tenant's page in the operator area: its id in the URL's fragment (never a secret). */
export const TENANT_PREFIX = '#tenant/'

export const tenantHref = (id: string) => `${TENANT_PREFIX}${encodeURIComponent(id)}`
