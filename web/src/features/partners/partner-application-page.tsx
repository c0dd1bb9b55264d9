import { useEffect, useRef, useState } from 'react';
import { Link } from 'react-router-dom';
import { PARTNER_REVIEW_HOURS, type PartnerApplication } from '@warmline/contracts/partners';
import { CheckIcon } from '../../components/icons';
import { SiteFooter, SiteHeader } from '../../components/site-header';
import { usePageTitle } from '../../lib/page-title';
import { PartnerApplicationForm } from './partner-application-form';
import './partners.css';

/**
 * /affnetwork (spec §2; issue 14): the Partner Network Application form, then, once it is taken,
 * the confirmation that promises a review within 48 hours (spec §9). The footer's link leads here.
 */
export function PartnerApplicationPage() {
  usePageTitle('Partner Network Application');
  const [submitted, setSubmitted] = useState<{ application: PartnerApplication; documents: number } | null>(null);

  return (
    <div className="public-page partner-page">
      <SiteHeader />
      <main id="main" className="public-page__main partner-page__main">
        {submitted ? (
          <ApplicationReceived application={submitted.application} documents={submitted.documents} />
        ) : (
          <>
            <header className="partner-page__intro">
              <h1 className="partner-page__title">Partner Network Application</h1>
              <p className="partner-page__lead">
                Lead vendors, call centers, marketing agencies and insurance agencies: tell us about your business and how you would like to work
                with WarmLine. We review every application within {PARTNER_REVIEW_HOURS} hours.
              </p>
            </header>
            <PartnerApplicationForm onSubmitted={(_created, application, documents) => setSubmitted({ application, documents })} />
          </>
        )}
      </main>
      <SiteFooter />
    </div>
  );
}

/** Spec §9: the promise of a review within 48 hours. */
function ApplicationReceived({ application, documents }: { application: PartnerApplication; documents: number }) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    window.scrollTo(0, 0);
    heading.current?.focus();
  }, []);
  return (
    <section className="card partner-received" aria-labelledby="partner-received-title">
      <span className="auth-card__icon auth-card__icon--success">
        <CheckIcon />
      </span>
      <h1 id="partner-received-title" ref={heading} tabIndex={-1} className="partner-received__title">
        Application Submitted!
      </h1>
      <p>
        Thank you, {application.contactName}. We’ll review the application of <strong>{application.businessName}</strong>
        {documents ? ` and its ${documents === 1 ? 'document' : `${documents} documents`}` : ''} within {PARTNER_REVIEW_HOURS} hours and reply to{' '}
        <strong>{application.email}</strong>.
      </p>
      <p className="partner-received__links">
        <Link to="/" className="btn btn--secondary">
          Back to Home
        </Link>
        <Link to="/pricing" className="link">
          See our pricing
        </Link>
      </p>
    </section>
  );
}
