export * from "./notify-config.js";
export * from "./notice.js";
export * from "./payload.js";
export * from "./claim.js";
export * from "./sender.js";
export * from "./notifier.js";
export * from "./turn-end.js";
