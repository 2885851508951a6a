// The OpenAPI doc of a dashboard route: tagged Dashboard and hidden, as the public document lists no
// session route (front/openapi.ts).
export const dashboard_doc = (summary: string) => ({ summary, tags: ['Dashboard'], hidden: true });
