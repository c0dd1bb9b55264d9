import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { closeRedis, createHttpApp, createLogger, createRedis, pingRedis, serve, ShutdownStack, type Logger } from '@warmline/platform';
import { openDatabaseAndBus } from '@warmline/platform/bus/index';
import type { GatewayConfig } from './config';
import type { AccountsContext } from './domain/context';
import { ensureFirstAdmin } from './domain/first-admin';
import { Throttle } from './domain/throttle';
import { accountRoutes } from './http/account-routes';
import { csrfProtection } from './http/csrf';
import { forwarding, forwardRoutes, type ForwardRoute } from './http/forwarding';
import { Sessions } from './http/sessions';
import { siteConfigRoutes } from './http/site-config-routes';
import { dashboardConfigRoutes } from './http/dashboard-config-routes';
import { mountSpa } from './http/spa';
import { userAdminRoutes } from './http/user-admin-routes';
import { surveyRoutes } from './http/survey-routes';
import { recruitingRoutes } from './http/recruiting-routes';
import { internalUserRoutes } from './http/internal-user-routes';

export const GATEWAY_SCHEMA = 'gateway';
export const GATEWAY_MIGRATIONS_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../migrations');

export interface GatewayOptions {
  log?: Logger;
  /** Extra forwarded routes (tests add a stand-in internal service), checked with the table's. */
  forwardRoutes?: ForwardRoute[];
}

export interface RunningGateway {
  url: string;
  stop(): Promise<void>;
}

/**
 * The public entry point: accounts and sessions, admin user management, forwarding of other
 * services' /api routes with a signed identity, and the SPA. Listens on GATEWAY_PORT (0 picks
 * a free port, for tests).
 */
export async function startGateway(config: GatewayConfig, options: GatewayOptions = {}): Promise<RunningGateway> {
  const log = options.log ?? createLogger('gateway', config.LOG_LEVEL);
  const stops = new ShutdownStack(log, 'the gateway');
  try {
    const { pool, readiness } = await openDatabaseAndBus({
      config,
      log,
      stops,
      schema: GATEWAY_SCHEMA,
      migrationsDir: GATEWAY_MIGRATIONS_DIR,
      connectionName: 'gateway',
    });
    const redis = await createRedis(config.REDIS_URL, log);
    stops.push('redis', () => closeRedis(redis));

    await ensureFirstAdmin(
      pool,
      { username: config.ADMIN_USERNAME, password: config.ADMIN_PASSWORD, email: config.ADMIN_EMAIL },
      log,
    );

    const sessions = new Sessions(redis, {
      secret: config.SESSION_SECRET,
      redisPrefix: config.REDIS_PREFIX,
      idleMinutes: config.SESSION_IDLE_MINUTES,
      absoluteHours: config.SESSION_ABSOLUTE_HOURS,
    });
    const ctx: AccountsContext = {
      pool,
      log,
      throttle: new Throttle(redis, config.REDIS_PREFIX),
      sessions,
      publicUrl: config.PUBLIC_URL,
    };
    let spaServed = false;

    const app = createHttpApp({
      service: 'gateway',
      log,
      readiness: [...readiness, ['redis', () => pingRedis(redis)]],
      // Sessions, CSRF and forwarding come before the JSON parser so forwarded bodies
      // (webhooks, uploads) reach their service byte for byte.
      mountBeforeBodyParsing: (app) => {
        app.use('/api', sessions.middleware, sessions.loadUser(pool), csrfProtection(config.PUBLIC_URL));
        app.use(
          '/api',
          forwarding({
            routes: [...forwardRoutes(config), ...(options.forwardRoutes ?? [])],
            identitySecret: config.IDENTITY_SECRET,
            log,
          }),
        );
      },
      mount: (app) => {
        app.use(siteConfigRoutes(config));
        app.use(dashboardConfigRoutes(config));
        app.use(accountRoutes(ctx, sessions));
        app.use(userAdminRoutes(ctx));
        app.use(surveyRoutes({ ...ctx, salesTeamEmail: config.SALES_TEAM_EMAIL }));
        app.use(recruitingRoutes({ ...ctx, recruitingTeamEmail: config.RECRUITING_TEAM_EMAIL }));
        // For internal services only (signed identity); before the SPA's history fallback.
        app.use(internalUserRoutes({ pool, identitySecret: config.IDENTITY_SECRET }));
        spaServed = mountSpa(app, config.WEB_DIST_DIR);
      },
    });

    const url = await serve(app, config.GATEWAY_PORT, stops);
    log.info(
      spaServed ? { url, spa: config.WEB_DIST_DIR } : { url, spa: `not built (${config.WEB_DIST_DIR} has no index.html)` },
      'gateway started',
    );
    return { url, stop: stops.stop };
  } catch (err) {
    await stops.stop();
    throw err;
  }
}
