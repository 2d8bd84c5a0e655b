import type { Request } from 'express';

/**
 * The route pattern of a request ("/api/v1/customers/:uuid"), never the raw URL, so that logs and
 * metric labels group requests and stay few. Requests no route matched (refused by auth, unknown
 * paths) get the surface they were aimed at.
 */
export function routeLabel(req: Request): string {
  const path = req.originalUrl.split('?')[0];
  const routePath: unknown = req.route?.path;
  if (typeof routePath === 'string') {
    // Express resets baseUrl when an error leaves a router; the REST router is mounted at /api/v1.
    const mount = req.baseUrl || (path.startsWith('/api/v1/') && !routePath.startsWith('/api/v1') ? '/api/v1' : '');
    return mount + routePath;
  }
  if (path === '/graphql' || path.startsWith('/graphql/')) return '/graphql';
  if (path.startsWith('/api/v1/') || path === '/api/v1') return '/api/v1/*';
  if (path.startsWith('/docs')) return '/docs';
  return '(unmatched)';
}
