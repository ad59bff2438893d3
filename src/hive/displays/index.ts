// The status displays the composition root registers with the crew (README.md).
export { StatusDisplays, type DisplayContext, type PaneDisplay, type StatusDisplay } from "./status-display.js";
export { TmuxBorders } from "./tmux-borders.js";
export { Iterm2Tabs } from "./iterm2-tabs.js";
export { Notices, type NoticeSettings } from "./notices.js";
