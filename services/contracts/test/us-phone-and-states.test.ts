import { describe, expect, it } from 'vitest';
import { areaCodeOf, diallableUsPhone, formatUsPhone, usPhoneDigits } from '../src/us-phone';
import { stateName, US_STATE_CODES, US_STATES, usStateOfText } from '../src/us-states';

/**
 * One reading of a US phone and of a state for every context (issue 26 item 5): the vendor's
 * webhook, imports, the suppression list, the registry file and the agent's transfer phone all
 * read a phone with usPhoneDigits; states are named in one table.
 */
describe('a US phone as people and vendors write it', () => {
  it.each([
    ['5125550143', '5125550143'],
    ['(512) 555-0143', '5125550143'],
    ['+1 (512) 555-0143', '5125550143'],
    ['1-512-555-0143', '5125550143'],
    ['512.555.0143', '5125550143'],
    ['512\u2013555\u20130143', '5125550143'],
    ['512/555 0143', '5125550143'],
  ])('when %j is read, then it is the ten digits %s', (text, digits) => {
    expect(usPhoneDigits(text)).toBe(digits);
  });

  it.each([
    ['512555014', 'nine digits'],
    ['25125550143', 'eleven digits not starting with the country code'],
    ['0125550143', 'an area code starting with 0'],
    ['1125550143', 'an area code starting with 1'],
    ['512-555-O143', 'a letter O for a zero'],
    ['512 555 0143 ext 2', 'an extension'],
    ['', 'nothing'],
  ])('when %j (%s) is read, then it is no US phone', (text) => {
    expect(usPhoneDigits(text)).toBeNull();
  });

  it('when a transfer phone has an exchange starting with 0 or 1, then no call can be put through to it, though stock keeps such a number', () => {
    expect(diallableUsPhone('(512) 155-0143')).toBeNull();
    expect(usPhoneDigits('(512) 155-0143')).toBe('5121550143');
    expect(diallableUsPhone('+1 512 555 0143')).toBe('5125550143');
  });

  it('when an area code or the display form is asked for, then punctuation and the country code do not matter', () => {
    expect(areaCodeOf('+1 (303) 555-0143')).toBe('303');
    expect(areaCodeOf('3035550143')).toBe('303');
    expect(formatUsPhone('3035550143')).toBe('(303) 555-0143');
    expect(formatUsPhone('555-0143')).toBe('555-0143');
  });
});

describe('a US state as people write it', () => {
  it.each([
    ['TX', 'TX'],
    ['tx', 'TX'],
    ['Texas', 'TX'],
    [' new  york ', 'NY'],
    ['DISTRICT OF COLUMBIA', 'DC'],
    ['Puerto Rico', 'PR'],
  ])('when %j is read, then it is %s', (text, code) => {
    expect(usStateOfText(text)).toBe(code);
  });

  it('when the text names no state, then it is null', () => {
    expect(usStateOfText('Texass')).toBeNull();
    expect(usStateOfText('ZZ')).toBeNull();
    expect(usStateOfText('')).toBeNull();
    expect(usStateOfText(null)).toBeNull();
  });

  it('when the states are listed, then every code has one name and the list is alphabetical by name', () => {
    expect(US_STATES).toHaveLength(US_STATE_CODES.length);
    expect(US_STATES.map((s) => s.name)).toEqual([...US_STATES.map((s) => s.name)].sort((a, b) => a.localeCompare(b)));
    expect(stateName('WV')).toBe('West Virginia');
    expect(stateName('ZZ')).toBe('ZZ');
  });
});
