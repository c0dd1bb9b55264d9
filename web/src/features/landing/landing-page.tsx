import { Link } from 'react-router-dom';
import { SiteFooter, SiteHeader } from '../../components/site-header';
import { ButtonLink } from '../../components/button';
import { usePageTitle } from '../../lib/page-title';

/** The landing page (spec §2). Its sections are built in a later issue; this is the hero. */
export function LandingPage() {
  usePageTitle('Live Transfers and Leads for Insurance Agents');
  return (
    <div className="public-page">
      <SiteHeader />
      <main id="main" className="public-page__main">
        <section className="hero">
          <h1 className="hero__title">Qualified live transfers for insurance agents</h1>
          <p className="hero__lead">
            TCPA-compliant, pre-screened prospects handed to your agency by phone in real time, plus aged leads,
            call-backs and recruiting help. Calls shorter than 120 seconds are never charged.
          </p>
          <div className="hero__actions">
            <ButtonLink to="/survey">Get Started Today</ButtonLink>
            <Link to="/pricing" className="link">
              See pricing
            </Link>
          </div>
        </section>
      </main>
      <SiteFooter />
    </div>
  );
}
