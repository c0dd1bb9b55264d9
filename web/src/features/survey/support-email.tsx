import { useSiteConfig } from '../../lib/site-config';

/** The support address of this deployment (spec {email}), as a mailto link. */
export function SupportEmail() {
  const siteConfig = useSiteConfig();
  const email = siteConfig.data?.supportEmail;
  if (!email) return <span aria-busy="true">our support team</span>;
  return (
    <a className="link" href={`mailto:${email}`}>
      {email}
    </a>
  );
}
