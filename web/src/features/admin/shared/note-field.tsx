import { ADMIN_NOTE_MAX } from '@warmline/contracts/admin-orders';
import { Field } from '../../../components/field';

/** The admin's optional note to the customer (issue 22): quoted in the e-mail, kept in the audit log. */
export function NoteField({ value, onChange, who }: { value: string; onChange: (note: string) => void; who: string }) {
  return (
    <Field label={`Note to ${who} (optional)`} hint="Quoted in the e-mail and kept in the audit log.">
      {(control) => <textarea {...control} className="field__input" rows={3} maxLength={ADMIN_NOTE_MAX} value={value} onChange={(e) => onChange(e.target.value)} />}
    </Field>
  );
}
