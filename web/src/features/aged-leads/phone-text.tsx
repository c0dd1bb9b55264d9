/**
 * '(512) 555-0142' (or the market's '(512) XXX-XXXX') that may wrap only after the area code, so
 * a narrow column never leaves half a number on a line.
 */
export function PhoneText({ phone }: { phone: string }) {
  const space = phone.indexOf(' ');
  if (space <= 0) return <>{phone}</>;
  return (
    <>
      {phone.slice(0, space)} <span className="lead-table__nobreak">{phone.slice(space + 1)}</span>
    </>
  );
}
