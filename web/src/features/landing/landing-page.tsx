import { useEffect, useState, type ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { BUFFER_SECONDS, PRICING_PAGE_IDS, PRICING_PAGES } from '@warmline/contracts/pricing';
import { ButtonLink } from '../../components/button';
import { BoltIcon, CalendarIcon, ChartIcon, CheckIcon, LeadsIcon, MailIcon, PhoneIcon, ShieldIcon, UsersIcon } from '../../components/icons';
import { SiteHeader } from '../../components/site-header';
import { usePageTitle } from '../../lib/page-title';
import { telHref, useSiteConfig, type SiteConfig } from '../../lib/site-config';
import { useHydrated } from '../../lib/use-hydrated';
import { formatRate } from '../pricing/format';
import './landing.css';

/** The landing page (spec §1–2): what WarmLine sells, why agents trust it, and how to reach us. */

const rates = PRICING_PAGE_IDS.map((id) => PRICING_PAGES[id].priceCents);
const HIGHEST_RATE = formatRate(Math.max(...rates));
const LOWEST_RATE = formatRate(Math.min(...rates));

/** Spec §1's claims. */
const STATS = [
  { value: '4000+', label: 'Call transfers delivered' },
  { value: '500+', label: 'Agents served' },
  { value: '95%', label: 'Success rate' },
];

/** How long the booking widget may take before the page offers the plain link instead. */
const BOOKING_WIDGET_TIMEOUT_MS = 15_000;

export function LandingPage() {
  usePageTitle('Live Transfers and Leads for Insurance Agents');
  const siteConfig = useSiteConfig();
  const site = siteConfig.data;

  return (
    <div className="public-page landing">
      <SiteHeader />
      <main id="main">
        <section className="landing-hero" aria-labelledby="hero-title">
          <div className="landing-hero__inner">
            <div className="landing-hero__copy">
              <p className="landing-eyebrow">AI-powered live transfers for insurance agencies</p>
              <h1 id="hero-title" className="landing-hero__title">
                Qualified prospects, transferred to your agents live
              </h1>
              <p className="landing-hero__lead">
                TCPA-compliant, pre-screened and warmed prospects handed to your agency by phone in real time — plus aged
                leads, call-backs and insurance recruiting help. The more you grow, the less each transfer costs.
              </p>
              <div className="landing-hero__actions">
                <ButtonLink to="/survey" className="landing-hero__cta">
                  Get Started Today
                </ButtonLink>
                <Link to="/pricing" className="landing-hero__secondary">
                  See volume pricing
                </Link>
              </div>
              <ul className="landing-hero__points">
                <li>
                  <CheckIcon /> From {HIGHEST_RATE} down to {LOWEST_RATE} per transfer
                </li>
                <li>
                  <CheckIcon /> Calls under {BUFFER_SECONDS} seconds are never charged
                </li>
              </ul>
            </div>
            <HeroArt />
          </div>
        </section>

        <section className="landing-section" aria-labelledby="services-title">
          <div className="landing-section__inner">
            <SectionHeading id="services-title" eyebrow="What we do" title="Everything your agency needs to grow">
              One partner for live conversations, fresh and aged leads, and the agents to work them.
            </SectionHeading>
            <div className="landing-grid">
              <Feature icon={<PhoneIcon />} title="Live Transfers">
                Our voice AI qualifies each prospect and transfers the call to your agent while they are on the line —
                no cold dialling, no chasing.
                <Link to="/pricing" className="link landing-feature__link">
                  See transfer pricing
                </Link>
              </Feature>
              <Feature icon={<LeadsIcon />} title="Premium Leads">
                Aged insurance leads filtered by state and age, and call-backs from prospects who asked to hear from
                you, ready in your dashboard.
                <Link to="/survey" className="link landing-feature__link">
                  Tell us what you need
                </Link>
              </Feature>
              <Feature icon={<UsersIcon />} title="Insurance Recruiting">
                Agent sourcing, training support and a retention program to staff your agency for the volume you buy.
                <Link to="/survey" className="link landing-feature__link">
                  Start recruiting
                </Link>
              </Feature>
            </div>
          </div>
        </section>

        <section className="landing-section landing-section--tinted" aria-labelledby="why-title">
          <div className="landing-section__inner">
            <SectionHeading id="why-title" eyebrow="Why choose us" title="Built for agencies that want to scale">
              Compliance, results and room to grow, with a price that drops as your volume rises.
            </SectionHeading>
            <div className="landing-grid">
              <Feature icon={<ShieldIcon />} title="TCPA Compliant">
                Every prospect has given consent and is pre-screened before the call reaches you, so your agency stays
                on the right side of the rules.
              </Feature>
              <Feature icon={<ChartIcon />} title="Proven Results">
                Warmed, qualified prospects who expect your call — and our {BUFFER_SECONDS}-Second Buffer Protection
                means a call that drops early is not charged.
              </Feature>
              <Feature icon={<BoltIcon />} title="Scale Quickly">
                Volume pricing lowers the cost per transfer: from {HIGHEST_RATE} up to 100 calls a day to {LOWEST_RATE}{' '}
                at 300 and more.
                <Link to="/pricing" className="link landing-feature__link">
                  Compare the tiers
                </Link>
              </Feature>
            </div>
          </div>
        </section>

        <section className="landing-section" aria-labelledby="testimonial-title">
          <div className="landing-section__inner landing-testimonial">
            <h2 id="testimonial-title" className="visually-hidden">
              What agents say
            </h2>
            <figure className="landing-testimonial__quote">
              {site ? (
                <>
                  <blockquote>
                    <p>“{site.testimonial.quote}”</p>
                  </blockquote>
                  <figcaption>
                    <strong>{site.testimonial.name}</strong>
                    <span>{site.testimonial.title}</span>
                  </figcaption>
                </>
              ) : (
                <div className="landing-placeholder" aria-hidden="true" />
              )}
            </figure>
            <dl className="landing-stats">
              {STATS.map((stat) => (
                <div key={stat.label} className="landing-stats__item">
                  <dt>{stat.label}</dt>
                  <dd>{stat.value}</dd>
                </div>
              ))}
            </dl>
          </div>
        </section>

        <section id="schedule-call" className="landing-section landing-section--tinted" aria-labelledby="schedule-title">
          <div className="landing-section__inner">
            <SectionHeading id="schedule-title" eyebrow="Questions?" title="Schedule a Call">
              Pick a time that suits you and we will walk you through transfers, pricing and onboarding.
            </SectionHeading>
            {site ? <BookingWidget site={site} /> : <div className="landing-placeholder landing-placeholder--tall" aria-hidden="true" />}
          </div>
        </section>

        <section id="contact" className="landing-section" aria-labelledby="contact-title">
          <div className="landing-section__inner landing-contact">
            <SectionHeading id="contact-title" eyebrow="Contact" title="Talk to our team">
              We answer within one business day.
            </SectionHeading>
            {site ? (
              <div className="landing-contact__grid">
                <a className="landing-contact__item" href={telHref(site.supportPhone)}>
                  <PhoneIcon />
                  <span>
                    <span className="landing-contact__label">Phone</span>
                    <span>{site.supportPhone}</span>
                  </span>
                </a>
                <a className="landing-contact__item" href={`mailto:${site.supportEmail}`}>
                  <MailIcon />
                  <span>
                    <span className="landing-contact__label">E-mail</span>
                    <span>{site.supportEmail}</span>
                  </span>
                </a>
                <BookCallLink site={site} />
              </div>
            ) : siteConfig.isError ? (
              <p>
                Our contact details could not be loaded.{' '}
                <button type="button" className="link landing-retry" onClick={() => void siteConfig.refetch()}>
                  Try again
                </button>
              </p>
            ) : (
              <div className="landing-placeholder" aria-hidden="true" />
            )}
          </div>
        </section>
      </main>

      <footer className="landing-footer">
        <div className="landing-footer__inner">
          <nav aria-label="Footer" className="landing-footer__links">
            <Link to="/pricing">Pricing</Link>
            <Link to="/survey">Get started</Link>
            <Link to="/affnetwork">Partner network</Link>
            <Link to="/login">Login</Link>
          </nav>
          <p className="landing-footer__credit">Hero artwork: WarmLine studio, drawn for this site.</p>
          <p>© 2025 WarmLine. All rights reserved.</p>
        </div>
      </footer>
    </div>
  );
}

function SectionHeading({ id, eyebrow, title, children }: { id: string; eyebrow: string; title: string; children: ReactNode }) {
  return (
    <header className="landing-heading">
      <p className="landing-eyebrow">{eyebrow}</p>
      <h2 id={id}>{title}</h2>
      <p className="landing-heading__lead">{children}</p>
    </header>
  );
}

function Feature({ icon, title, children }: { icon: ReactNode; title: string; children: ReactNode }) {
  return (
    <article className="landing-feature">
      <span className="landing-feature__icon">{icon}</span>
      <h3>{title}</h3>
      <p>{children}</p>
    </article>
  );
}

/**
 * Where 'Book a Call Now' goes: the booking service in a new tab, or — with none configured —
 * an e-mail to support asking for a call, so the button always does something.
 */
function bookingLinkProps(site: SiteConfig, preferWidget = false) {
  if (site.bookingUrl && preferWidget) return { href: '#schedule-call' };
  if (site.bookingUrl) return { href: site.bookingUrl, target: '_blank', rel: 'noopener noreferrer' };
  return { href: `mailto:${site.supportEmail}?subject=${encodeURIComponent('Book a call with WarmLine')}` };
}

/** Contact's 'Book a Call Now': the same link as prerendered until the page is live (the booking address is run-time). */
function BookCallLink({ site }: { site: SiteConfig }) {
  const hydrated = useHydrated();
  return (
    <a className="btn btn--primary landing-contact__book" {...bookingLinkProps(hydrated ? site : { ...site, bookingUrl: null }, true)}>
      Book a Call Now
    </a>
  );
}

/**
 * The external booking widget (min height 800 px, spec §2). Without a configured address, or
 * when the frame has not loaded in time (blocked, offline, the service down), the section
 * offers a plain link instead of an empty frame; the link also stays under a working frame.
 */
function BookingWidget({ site }: { site: SiteConfig }) {
  // The prerendered page (and hydration) shows the plain link; the frame comes once the page is live.
  const url = useHydrated() ? site.bookingUrl : null;
  const [state, setState] = useState<'loading' | 'loaded' | 'failed'>(() =>
    typeof navigator !== 'undefined' && navigator.onLine === false ? 'failed' : 'loading',
  );
  useEffect(() => {
    if (!url || state !== 'loading') return;
    const timer = setTimeout(() => setState((s) => (s === 'loading' ? 'failed' : s)), BOOKING_WIDGET_TIMEOUT_MS);
    return () => clearTimeout(timer);
  }, [state, url]);

  if (!url || state === 'failed') {
    return (
      <div className="landing-booking landing-booking--fallback">
        <CalendarIcon />
        <p>
          {url
            ? 'The booking calendar could not be shown here.'
            : 'Tell us when suits you and we will call you back.'}{' '}
          You can also call us at <a href={telHref(site.supportPhone)}>{site.supportPhone}</a>.
        </p>
        <a className="btn btn--primary" {...bookingLinkProps({ ...site, bookingUrl: url })}>
          Book a Call Now
        </a>
      </div>
    );
  }
  return (
    <div className="landing-booking">
      <iframe
        className="landing-booking__frame"
        src={url}
        title="Book a call with WarmLine"
        onLoad={() => setState('loaded')}
        onError={() => setState('failed')}
      />
      <p className="landing-booking__alt">
        Calendar not showing?{' '}
        <a href={url} target="_blank" rel="noopener noreferrer">
          Book a Call Now
        </a>
      </p>
    </div>
  );
}

/** The hero's artwork: a call being handed over, drawn in SVG so the page loads no photo. */
function HeroArt() {
  return (
    <div className="landing-hero__art" aria-hidden="true">
      <svg viewBox="0 0 360 300" role="presentation">
        <defs>
          <linearGradient id="hero-card" x1="0" x2="1" y1="0" y2="1">
            <stop offset="0" stopColor="#ffffff" />
            <stop offset="1" stopColor="#e6f2ef" />
          </linearGradient>
        </defs>
        <rect x="20" y="30" width="220" height="120" rx="18" fill="url(#hero-card)" />
        <circle cx="70" cy="90" r="28" fill="#0f5b4f" />
        <path d="M60 82c0 14 6 20 20 20l4-6-7-4-3 3c-4-2-6-4-7-7l3-3-4-7z" fill="#fff" />
        <rect x="112" y="70" width="100" height="12" rx="6" fill="#0f5b4f" opacity="0.85" />
        <rect x="112" y="92" width="70" height="10" rx="5" fill="#4a5563" opacity="0.35" />
        <rect x="120" y="160" width="220" height="110" rx="18" fill="#ffffff" />
        <circle cx="170" cy="215" r="26" fill="#f2a516" />
        <path d="M160 215l7 7 13-14" stroke="#fff" strokeWidth="5" fill="none" strokeLinecap="round" strokeLinejoin="round" />
        <rect x="210" y="198" width="100" height="12" rx="6" fill="#17202a" opacity="0.8" />
        <rect x="210" y="220" width="80" height="10" rx="5" fill="#4a5563" opacity="0.35" />
        <path d="M150 150c10 8 14 12 14 22" stroke="#f2a516" strokeWidth="4" strokeDasharray="6 8" fill="none" strokeLinecap="round" />
      </svg>
    </div>
  );
}
