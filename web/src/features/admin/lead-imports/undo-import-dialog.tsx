import type { LeadImportView } from '@warmline/contracts/lead-imports';
import { Button } from '../../../components/button';
import { Dialog, DialogClose } from '../../../components/dialog';
import { toast } from '../../../components/toast-store';
import { errorMessage } from '../../../lib/api';
import { useUndoLeadImport } from './lead-imports-api';
import { plural } from './lead-import-progress';

export function UndoImportDialog({ job, onClose }: { job: LeadImportView; onClose: () => void }) {
  const undo = useUndoLeadImport();
  return (
    <Dialog
      open
      onOpenChange={(open) => !open && onClose()}
      title="Undo Import"
      description={`Undo the import of ${job.fileName}? This withdraws the leads of this import that are not sold yet, of the ${plural(job.rowsImported, 'lead', 'leads')} it imported. Leads already sold stay with their buyers; withdrawn leads cannot be put back on sale.`}
    >
      <div className="dialog__actions">
        <DialogClose asChild>
          <Button variant="secondary">Keep Leads</Button>
        </DialogClose>
        <Button
          variant="danger"
          busy={undo.isPending}
          onClick={() =>
            undo.mutate(job.id, {
              onSuccess: (view) => {
                toast({ title: 'Import undone', description: `${plural(view.rowsWithdrawn ?? 0, 'lead', 'leads')} withdrawn.`, variant: 'success' });
                onClose();
              },
              onError: (error) => toast({ title: 'Failed to undo import', description: errorMessage(error, 'Please try again.'), variant: 'destructive' }),
            })
          }
        >
          Undo Import
        </Button>
      </div>
    </Dialog>
  );
}
