// Memberships written through the API, over the seeded ones (access.ts derives those): one
// record per (source, user); a removed seeded membership stays as a record of level 0.
export interface MembershipRec {
  level: number;
  expiresAt: string | null;
  createdById: number;
  createdAt: number;
}

export type MemberSourceKind = 'group' | 'project';

export class Memberships {
  private readonly bySource = {
    group: new Map<number, Map<number, MembershipRec>>(),
    project: new Map<number, Map<number, MembershipRec>>(),
  };

  /** The written membership of a user (level 0: removed), or undefined when the seeded one holds. */
  get(kind: MemberSourceKind, sourceId: number, userId: number): MembershipRec | undefined {
    return this.bySource[kind].get(sourceId)?.get(userId);
  }

  /** Every written membership of a source, removed ones included. */
  of(kind: MemberSourceKind, sourceId: number): ReadonlyMap<number, MembershipRec> {
    return this.bySource[kind].get(sourceId) ?? new Map();
  }

  set(kind: MemberSourceKind, sourceId: number, userId: number, rec: MembershipRec): void {
    let members = this.bySource[kind].get(sourceId);
    if (!members) {
      members = new Map();
      this.bySource[kind].set(sourceId, members);
    }
    members.set(userId, rec);
  }
}
