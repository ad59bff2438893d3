export async function benchDoors(emit: (r: Record<string, unknown>) => void): Promise<void> { void emit; }
