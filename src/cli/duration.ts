import { InvalidArgumentError } from 'commander';

const UNIT_MS: Record<string, number> = { h: 3_600_000, d: 86_400_000, w: 7 * 86_400_000 };

/** An age such as `90d`, `12h` or `2w`, in milliseconds; commander words the refusal (exit 2). */
export function ageOption(name: string) {
  return (value: string): number => {
    const match = /^(\d+)([hdw])$/.exec(value.trim());
    if (!match || Number(match[1]) === 0) {
      throw new InvalidArgumentError(`${name} must be a positive number of hours, days or weeks (12h, 90d, 2w)`);
    }
    return Number(match[1]) * (UNIT_MS[match[2] as string] as number);
  };
}
