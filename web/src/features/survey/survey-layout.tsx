import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { Logo } from '../../components/brand';
import './survey.css';

/**
 * The page around a survey or its result screens: the brand's header, a wide card, and a line
 * to log in for people who already have an account. The second brand (RingCloud) gets its own
 * name and colours through `.brand-ringcloud`, which only re-points the colour tokens.
 */
export type SurveyBrand = 'WarmLine' | 'RingCloud';

export function SurveyLayout({
  brand = 'WarmLine',
  title,
  subtitle,
  children,
  wide = true,
  footer = true,
}: {
  brand?: SurveyBrand;
  title: ReactNode;
  subtitle?: ReactNode;
  children: ReactNode;
  /** Form pages use the wide card; result pages a narrower one. */
  wide?: boolean;
  /** The "Already have an account?" line. */
  footer?: boolean;
}) {
  return (
    <div className={`card-page survey-page${brand === 'RingCloud' ? ' brand-ringcloud' : ''}`}>
      <header className="card-page__brand">{brand === 'RingCloud' ? <RingcloudLogo /> : <Logo />}</header>
      <main id="main" className={`survey-page__main${wide ? '' : ' survey-page__main--narrow'}`}>
        <section className="card survey-card" aria-labelledby="survey-title">
          <h1 id="survey-title" className="survey-card__title">
            {title}
          </h1>
          {subtitle ? <p className="card-page__subtitle">{subtitle}</p> : null}
          {children}
        </section>
        {footer ? (
          <p className="card-page__footer">
            Already have an account?{' '}
            <Link to="/login" className="link">
              Log in
            </Link>
          </p>
        ) : null}
      </main>
    </div>
  );
}

/** The second brand's mark: its own name, no link into WarmLine's site. */
function RingcloudLogo() {
  return (
    <span className="logo ringcloud-logo">
      <svg width="30" height="30" viewBox="0 0 32 32" aria-hidden="true">
        <rect width="32" height="32" rx="16" fill="currentColor" />
        <path d="M10 21h12a4 4 0 0 0 0-8 6 6 0 0 0-11.3 1.5A3.3 3.3 0 0 0 10 21z" fill="#fff" />
      </svg>
      <span className="logo__name">RingCloud</span>
    </span>
  );
}
