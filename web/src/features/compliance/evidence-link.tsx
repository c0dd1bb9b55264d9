import type { EvidenceKind } from '@warmline/contracts/evidence-pack';
import './evidence-link.css';

const MY_PATHS: Record<EvidenceKind, string> = { lead: '/api/my-leads', callback: '/api/my-callbacks', transfer: '/api/my-transfers' };
const ADMIN_PATHS: Record<EvidenceKind, string> = { lead: '/api/admin/leads', callback: '/api/admin/callback-opportunities', transfer: '/api/admin/transfers' };

/**
 * The consent evidence pack's download (issue 24 §4): one zip of a PDF and its JSON, named by
 * the server's Content-Disposition. A plain link: the session cookie goes with it, and the
 * browser saves the file without leaving the page. `admin` reads any sale through the admin's route.
 */
export function EvidenceLink({ kind, id, name, admin = false }: { kind: EvidenceKind; id: string; name: string; admin?: boolean }) {
  const href = `${(admin ? ADMIN_PATHS : MY_PATHS)[kind]}/${encodeURIComponent(id)}/evidence`;
  return (
    <a className="link evidence-link" href={href} download data-testid="evidence-link">
      Evidence pack{' '}<span className="visually-hidden">{`for ${name} (PDF and JSON, zip)`}</span>
    </a>
  );
}
