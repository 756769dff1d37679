// Sorted arrays of ids, kept sorted in place.

/** Binary search: first index in sorted `arr` whose value is > x. */
export function upperBound(arr: readonly number[], x: number): number {
  let lo = 0;
  let hi = arr.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (arr[mid]! <= x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Binary search: first index in sorted `arr` whose value is >= x. */
export function lowerBound(arr: readonly number[], x: number): number {
  let lo = 0;
  let hi = arr.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (arr[mid]! < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

export function insertSorted(arr: number[], x: number): void {
  const i = lowerBound(arr, x);
  if (arr[i] !== x) arr.splice(i, 0, x);
}

export function removeSorted(arr: number[], x: number): void {
  const i = lowerBound(arr, x);
  if (arr[i] === x) arr.splice(i, 1);
}
