import { createPublicKey, type KeyObject } from 'node:crypto';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  closeRedis,
  ConfigError,
  createHttpApp,
  createHttpMetrics,
  createLogger,
  createRedis,
  identityCheck,
  pingRedis,
  privateKeyOf,
  publicKeyOf,
  serve,
  ShutdownStack,
  type Logger,
} from '@warmline/platform';
import { openDatabaseAndBus, startConsumers } from '@warmline/platform/bus/index';
import type { GatewayConfig } from './config';
import type { AccountsContext } from './domain/context';
import { ensureFirstAdmin } from './domain/first-admin';
import { ResetRequestQueue } from './domain/password-reset';
import { totpEncryptionKey } from './domain/totp';
import type { TwoFactorContext } from './domain/two-factor';
import { Throttle } from './edge/throttle';
import { accountRoutes } from './http/account-routes';
import { csrfProtection } from './edge/csrf';
import { routeManifestGate } from './edge/access';
import { purchaseThrottle } from './edge/purchase-throttle';
import { partnerApplicationThrottle } from './edge/partner-application-throttle';
import { vendorCallCounter, vendorWebhookThrottle } from './edge/vendor-webhook';
import { forwarder, forwarding, ownerTargets, type ForwardRoute } from './edge/forwarding';
import { vendorCallsEdge } from './edge/vendor-calls';
import { Sessions } from './edge/sessions';
import { viewAsGate, ViewAsGrants } from './edge/view-as';
import { endViewingsOfSession, recordExpired, type ViewAsContext } from './domain/view-as';
import { viewAsRoutes } from './http/view-as-routes';
import { contentSecurityPolicy, securityHeaders } from './edge/security-headers';
import { siteConfigOf, siteConfigRoutes } from './http/site-config-routes';
import { apiDocsRoutes } from './http/api-docs-routes';
import { dashboardConfigRoutes } from './http/dashboard-config-routes';
import { mountSpa } from './edge/spa';
import { userAdminRoutes } from './http/user-admin-routes';
import { campaignRoutes } from './http/campaign-routes';
import { adminRoutes } from './http/admin-routes';
import { customerSearchRoutes } from './http/customer-search-routes';
import { consumers } from './events/consumers';
import { surveyRoutes } from './http/survey-routes';
import { recruitingRoutes } from './http/recruiting-routes';
import { internalUserRoutes } from './http/internal-user-routes';

export const GATEWAY_SCHEMA = 'gateway';
/** @public infra/scripts/migrations.ts reads it by name from a dynamic import knip cannot follow. */
export const GATEWAY_MIGRATIONS_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../migrations');

export interface GatewayOptions {
  log?: Logger;
  /** Extra forwarded routes (tests add a stand-in internal service), checked with the table's. */
  forwardRoutes?: ForwardRoute[];
}

export interface RunningGateway {
  /** The public port: the SPA, the API and a bare /healthz. */
  url: string;
  /** The internal listener: /readyz, /metrics and the /internal routes for services. */
  internalUrl: string;
  stop(): Promise<void>;
}

/**
 * The public entry point: accounts and sessions, admin user management, forwarding of other
 * services' /api routes with a signed identity, and the SPA. Listens on GATEWAY_PORT; its
 * readiness, metrics and the routes for internal services are on GATEWAY_INTERNAL_PORT at
 * INTERNAL_HOST (0 picks a free port, for tests).
 */
export async function startGateway(config: GatewayConfig, options: GatewayOptions = {}): Promise<RunningGateway> {
  const log = options.log ?? createLogger('gateway', config.LOG_LEVEL);
  const stops = new ShutdownStack(log, 'the gateway');
  const identityKey = gatewayIdentityKey(config);
  try {
    const { pool, bus, readiness } = await openDatabaseAndBus({
      config,
      log,
      stops,
      schema: GATEWAY_SCHEMA,
      migrationsDir: GATEWAY_MIGRATIONS_DIR,
      connectionName: 'gateway',
    });
    const redis = await createRedis(config.REDIS_URL, log, { commandTimeoutMs: config.REDIS_COMMAND_TIMEOUT_MS });
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
      secureCookie: config.NODE_ENV === 'production',
    });
    if (config.NODE_ENV === 'production' && new URL(config.PUBLIC_URL).protocol !== 'https:') {
      // The Secure cookie is never sent back over plain http: logins would seem to do nothing.
      log.warn({ publicUrl: config.PUBLIC_URL }, 'PUBLIC_URL is not https: in production the session cookie needs https (a TLS proxy and TRUST_PROXY)');
    }
    const resetRequests = new ResetRequestQueue({ pool, log, publicUrl: config.PUBLIC_URL }).start();
    stops.push('password reset requests', resetRequests.stop);
    const ctx: AccountsContext = {
      pool,
      log,
      throttle: new Throttle(redis, config.REDIS_PREFIX),
      sessions,
      publicUrl: config.PUBLIC_URL,
      resetRequests,
    };
    const accounts: TwoFactorContext = {
      ...ctx,
      twoFactor: {
        encryptionKey: totpEncryptionKey(config),
        requiredForAdmins: config.TWO_FACTOR_REQUIRED_FOR_ADMINS ?? config.NODE_ENV === 'production',
      },
    };
    // Admins' read-only views of an agent's dashboard, one tab each (docs/adr/0014-view-as.md).
    const viewAsGrants = new ViewAsGrants(redis, config.REDIS_PREFIX, config.VIEW_AS_SECONDS * 1000);
    const viewAs: ViewAsContext = { pool, log, grants: viewAsGrants };
    let spaServed = false;

    // One set of HTTP metrics for both listeners, served on the internal one.
    const httpMetrics = createHttpMetrics('gateway');
    const app = createHttpApp({
      service: 'gateway',
      log,
      ops: 'liveness',
      httpMetrics,
      trustProxy: config.TRUST_PROXY,
      mountFirst: (app) => {
        app.use(
          securityHeaders({
            bookingUrl: config.BOOKING_URL,
            embedUrls: config.TRAINING_VIDEOS.map((video) => video.embedUrl),
            production: config.NODE_ENV === 'production',
          }),
        );
        // A vendor's keyed call (no cookie) goes from here to its service: no session, view-as or
        // CSRF work, only its throttle (docs/adr/0051).
        app.use(
          '/api',
          vendorCallsEdge({
            targets: ownerTargets(config),
            count: vendorCallCounter(ctx.throttle, { perKeyPerMinute: config.VENDOR_WEBHOOK_CALLS_PER_MINUTE }),
            forward: forwarder({ identityKey }),
          }),
        );
      },
      // Sessions, CSRF and forwarding come before the JSON parser so forwarded bodies
      // (webhooks, uploads) reach their service byte for byte.
      mountBeforeBodyParsing: (app) => {
        app.use('/api', sessions.middleware, sessions.loadUser(pool));
        // A viewing tab's request becomes the viewed agent's, read only, before anything else decides.
        app.use('/api', viewAsGate({ grants: viewAsGrants, pool, onExpired: (grant) => recordExpired(viewAs, grant) }));
        app.use('/api', csrfProtection(config.PUBLIC_URL));
        // The route manifest decides what exists and who may call it, then who answers it.
        app.use('/api', routeManifestGate((options.forwardRoutes ?? []).map((r) => r.prefix)));
        // Counted in the gateway's Redis before the catalog reserves anything.
        app.use('/api', purchaseThrottle(ctx.throttle, config.PURCHASE_ATTEMPTS_PER_MINUTE));
        // At most 5 partner applications an hour per address, counted before the upload is forwarded.
        app.use('/api', partnerApplicationThrottle(ctx.throttle, log));
        // Vendor webhook calls per key, and key-less calls per address, a minute (fails open without Redis).
        app.use('/api', vendorWebhookThrottle(ctx.throttle, { perKeyPerMinute: config.VENDOR_WEBHOOK_CALLS_PER_MINUTE }));
        app.use(
          '/api',
          forwarding({
            targets: ownerTargets(config),
            routes: options.forwardRoutes ?? [],
            identityKey,
            log,
          }),
        );
      },
      mount: (app) => {
        app.use(siteConfigRoutes(config));
        app.use(apiDocsRoutes());
        app.use(dashboardConfigRoutes(config));
        app.use(accountRoutes(accounts, sessions, { beforeLogout: (req) => endViewingsOfSession(viewAs, req.sessionID) }));
        app.use(userAdminRoutes(ctx));
        app.use(campaignRoutes(ctx));
        app.use(adminRoutes(ctx, config));
        app.use(customerSearchRoutes(ctx, config));
        app.use(viewAsRoutes(viewAs));
        app.use(surveyRoutes({ ...ctx, salesTeamEmail: config.SALES_TEAM_EMAIL, identityKey }));
        app.use(recruitingRoutes({ ...ctx, recruitingTeamEmail: config.RECRUITING_TEAM_EMAIL }));
        const framed = { bookingUrl: config.BOOKING_URL, embedUrls: config.TRAINING_VIDEOS.map((video) => video.embedUrl) };
        spaServed = mountSpa(app, {
          distDir: config.WEB_DIST_DIR,
          siteConfig: siteConfigOf(config),
          contentSecurityPolicy: (style) => contentSecurityPolicy(framed, style),
        });
      },
    });

    const internalApp = createHttpApp({
      service: 'gateway',
      log,
      httpMetrics,
      // Sessions, logins and throttles all need Redis: without it the gateway cannot serve.
      readiness: [...readiness, ['redis', () => pingRedis(redis), 'required']],
      metrics: bus.metrics.registry,
      // For internal services only (signed identity).
      mount: (a) => a.use(internalUserRoutes({ pool, identity: identityCheck(config, 'gateway') })),
    });

    // Admin actions other services report, stored in the one audit log.
    await startConsumers(consumers(), { bus, pool, log }, stops);

    const internalUrl = await serve(internalApp, config.GATEWAY_INTERNAL_PORT, stops, config.INTERNAL_HOST);
    const url = await serve(app, config.GATEWAY_PORT, stops);
    log.info(
      spaServed
        ? { url, internalUrl, spa: config.WEB_DIST_DIR }
        : { url, internalUrl, spa: `not built (${config.WEB_DIST_DIR} has no index.html)` },
      'gateway started',
    );
    return { url, internalUrl, stop: stops.stop };
  } catch (err) {
    await stops.stop();
    throw err;
  }
}

/**
 * The gateway's private identity key, which must be the half of IDENTITY_PUBLIC_KEY the services
 * hold: otherwise every forwarded request would be refused (docs/adr/0042).
 */
function gatewayIdentityKey(config: GatewayConfig): KeyObject {
  const key = privateKeyOf(config.IDENTITY_PRIVATE_KEY);
  const publicHalf = createPublicKey(key).export({ format: 'der', type: 'spki' });
  if (!publicHalf.equals(publicKeyOf(config.IDENTITY_PUBLIC_KEY).export({ format: 'der', type: 'spki' }))) {
    throw new ConfigError('Invalid configuration: IDENTITY_PRIVATE_KEY: is not the private key of IDENTITY_PUBLIC_KEY');
  }
  return key;
}
