import { SiteFooter, SiteHeader } from '../../components/site-header';
import { ButtonLink } from '../../components/button';
import { usePageTitle } from '../../lib/page-title';

export function NotFoundPage() {
  usePageTitle('Page not found');
  return (
    <div className="public-page">
      <SiteHeader />
      <main id="main" className="public-page__main">
        <section className="card not-found">
          <p className="not-found__code" aria-hidden="true">
            404
          </p>
          <h1 className="not-found__title">404 Page Not Found</h1>
          <p>The page you are looking for does not exist or has moved.</p>
          <ButtonLink to="/">Back to home</ButtonLink>
        </section>
      </main>
      <SiteFooter />
    </div>
  );
}
