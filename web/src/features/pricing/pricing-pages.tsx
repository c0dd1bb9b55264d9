import { Link } from 'react-router-dom';
import {
  HIGH_VOLUME_CHECKOUT,
  PRICING_PAGE_IDS,
  PRICING_PAGES,
  highVolumeBandLabel,
  type PricingPageId,
} from '@warmline/contracts/pricing';
import { ButtonLink } from '../../components/button';
import { CheckIcon } from '../../components/icons';
import { SiteFooter, SiteHeader } from '../../components/site-header';
import { usePageTitle } from '../../lib/page-title';
import { telHref, useSiteConfig } from '../../lib/site-config';
import { BufferExplanation, BufferProtectionCard, BUFFER_TITLE } from './buffer-protection';
import { formatRate } from './format';
import { checkoutOfPage, checkoutRateText, pageRateNote } from './rate-labels';
import { CORE_FEATURES, ENTERPRISE_BENEFITS, ULTIMATE_BENEFITS } from './tier-benefits';
import { usePageConfetti } from './use-page-confetti';
import './pricing.css';

/**
 * The pricing pages (spec §2, §9). Every rate, calls-per-day band, badge and checkout link
 * comes from the contracts pricing table, the same one the server charges from.
 */

interface PageCopy {
  title: string;
  headline: string;
  lead: string;
  benefitsTitle: string;
  benefits: string[];
}

const COPY: Record<PricingPageId, PageCopy> = {
  standard: {
    title: 'Standard Pricing',
    headline: 'Standard Pricing',
    lead: 'Qualified live transfers for growing agencies.',
    benefitsTitle: "What's included",
    benefits: CORE_FEATURES,
  },
  special: {
    title: 'Special Offer',
    headline: 'Congratulations!',
    lead: 'Your agency qualifies for our special offer: a lower rate on every live transfer.',
    benefitsTitle: "What's included",
    benefits: CORE_FEATURES,
  },
  premium: {
    title: 'Premium Pricing',
    headline: 'Premium Pricing',
    lead: 'Your volume earns a premium rate on every live transfer.',
    benefitsTitle: "What's included",
    benefits: CORE_FEATURES,
  },
  enterprise: {
    title: 'Enterprise Pricing',
    headline: 'Enterprise Pricing',
    lead: 'Enterprise volume, enterprise service.',
    benefitsTitle: 'Enterprise benefits',
    benefits: ENTERPRISE_BENEFITS,
  },
  ultimate: {
    title: 'Ultimate Pricing',
    headline: 'Ultimate Pricing',
    lead: 'Our lowest rate, for the agencies that move the most calls.',
    benefitsTitle: 'Ultimate benefits',
    benefits: ULTIMATE_BENEFITS,
  },
};

const HINT = 'Click to customize your package and complete setup';

function PricingTierPage({ id }: { id: PricingPageId }) {
  const page = PRICING_PAGES[id];
  const checkout = checkoutOfPage(page);
  const copy = COPY[id];
  usePageTitle(copy.title);
  usePageConfetti(id === 'ultimate' ? 'strong' : 'standard');

  return (
    <div className="public-page">
      <SiteHeader />
      <main id="main" className="pricing-main">
        <header className="pricing-hero">
          {page.badge && page.badge !== copy.headline.replace('!', '') ? <p className="pricing-badge">{page.badge}</p> : null}
          <h1 className="pricing-hero__title">{copy.headline}</h1>
          <p className="pricing-hero__lead">{copy.lead}</p>
        </header>

        <div className="pricing-cards">
          <section className="rate-card" aria-labelledby="rate-title">
            {/* The page's rate is the volume rate of its call volume, not the checkout's (issue 17). */}
            <h2 id="rate-title" className="rate-card__label">
              Volume rate
            </h2>
            <p className="rate-card__price">
              {page.wasPriceCents ? (
                <>
                  <del className="rate-card__was" aria-label={`was ${formatRate(page.wasPriceCents)}`}>
                    {formatRate(page.wasPriceCents)}
                  </del>{' '}
                  <span aria-hidden="true" className="rate-card__arrow">
                    →
                  </span>{' '}
                </>
              ) : null}
              <span className="rate-card__amount">{formatRate(page.priceCents)}</span>
              <span className="rate-card__unit"> per transfer</span>
            </p>
            <p className="rate-card__band">For agencies with {page.callsPerDayLabel}</p>
            <p className="rate-card__checkout">
              Checkout rate: {checkoutRateText(checkout)}
            </p>
          </section>
          <BufferProtectionCard />
        </div>

        <BufferExplanation />

        <section className="pricing-benefits" aria-labelledby="benefits-title">
          <h2 id="benefits-title">{copy.benefitsTitle}</h2>
          <ul>
            {copy.benefits.map((benefit) => (
              <li key={benefit}>
                <CheckIcon /> {benefit}
              </li>
            ))}
          </ul>
        </section>

        <div className="pricing-cta">
          <p className="pricing-cta__checkout" id="checkout-rate" data-testid="checkout-rate">
            <span className="pricing-cta__checkout-label">Checkout rate:</span>{' '}
            <strong>{checkoutRateText(checkout)}</strong>{' '}
            <span className="pricing-cta__package">({checkout.title})</span>
          </p>
          <ButtonLink to={checkout.path} className="pricing-cta__button" aria-describedby="checkout-rate checkout-rate-note">
            Let's get started!
          </ButtonLink>
          <p className="pricing-cta__hint">{HINT}</p>
          <p className="pricing-cta__note" id="checkout-rate-note" data-testid="page-rate-note">
            {pageRateNote(page)}
          </p>
        </div>
      </main>
      <SiteFooter />
    </div>
  );
}

export function StandardPricingPage() {
  return <PricingTierPage id="standard" />;
}
export function SpecialPricingPage() {
  return <PricingTierPage id="special" />;
}
export function PremiumPricingPage() {
  return <PricingTierPage id="premium" />;
}
export function EnterprisePricingPage() {
  return <PricingTierPage id="enterprise" />;
}
export function UltimatePricingPage() {
  return <PricingTierPage id="ultimate" />;
}

/**
 * /pricing (not shown in the spec): every tier side by side by calls per day, each linking
 * to its page, and the high-volume package for agencies that want to choose a count.
 */
export function PricingPage() {
  usePageTitle('Pricing');
  return (
    <div className="public-page">
      <SiteHeader />
      <main id="main" className="pricing-main pricing-main--wide">
        <header className="pricing-hero">
          <h1 className="pricing-hero__title">Volume pricing for live transfers</h1>
          <p className="pricing-hero__lead">
            The more calls your agency handles per day, the less each transfer costs. Every tier includes {BUFFER_TITLE}.
          </p>
        </header>

        <ol className="tier-grid" aria-label="Pricing tiers by calls per day">
          {PRICING_PAGE_IDS.map((id) => {
            const page = PRICING_PAGES[id];
            return (
              <li key={id} className={id === 'ultimate' ? 'tier tier--best' : 'tier'}>
                <h2 className="tier__name">{COPY[id].title}</h2>
                <p className="tier__band">{capitalise(page.callsPerDayLabel)}</p>
                <p className="tier__price">
                  {page.wasPriceCents ? (
                    <del className="tier__was">{formatRate(page.wasPriceCents)}</del>
                  ) : (
                    // Keeps every tier's price on the same line as the one with a crossed-out rate.
                    <span className="tier__was" aria-hidden="true">
                      &nbsp;
                    </span>
                  )}
                  <span className="tier__amount">{formatRate(page.priceCents)}</span>
                  <span className="tier__unit">per transfer, volume rate</span>
                </p>
                <p className="tier__checkout" data-testid="tier-checkout-rate">
                  Checkout rate {checkoutRateText(checkoutOfPage(page))}
                  <span className="tier__package">{checkoutOfPage(page).title}</span>
                </p>
                {page.badge ? <p className="pricing-badge pricing-badge--small">{page.badge}</p> : <p className="tier__spacer" />}
                <Link to={page.path} className="btn btn--secondary btn--block">
                  See details<span className="visually-hidden"> of {COPY[id].title}</span>
                </Link>
              </li>
            );
          })}
        </ol>

        <section className="high-volume-offer" aria-labelledby="high-volume-title">
          <div>
            <h2 id="high-volume-title">{HIGH_VOLUME_CHECKOUT.title}</h2>
            <p>Choose exactly how many transfers you want; the rate drops as the count rises.</p>
            <ul className="high-volume-offer__bands">
              {HIGH_VOLUME_CHECKOUT.bands.map((band) => (
                <li key={band.minCount}>{highVolumeBandLabel(band)}</li>
              ))}
            </ul>
          </div>
          <ButtonLink to={HIGH_VOLUME_CHECKOUT.path}>Build a volume package</ButtonLink>
        </section>

        <p className="pricing-note">
          Not sure which tier fits?{' '}
          <Link to="/survey" className="link">
            Complete our survey
          </Link>{' '}
          and we will recommend one, or{' '}
          <a href="/#schedule-call" className="link">
            schedule a call
          </a>
          <SupportPhone />.
        </p>
      </main>
      <SiteFooter />
    </div>
  );
}

/** ", or call us at {phone}" once the settings are known (prerendered pages have them at once). */
function SupportPhone() {
  const phone = useSiteConfig().data?.supportPhone;
  if (!phone) return null;
  return (
    <>
      , or call us at{' '}
      <a href={telHref(phone)} className="link">
        {phone}
      </a>
    </>
  );
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
