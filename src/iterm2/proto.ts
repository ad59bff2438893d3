// The subset of iTerm2's API messages termhive uses, written here from the public facts of the
// protocol (message names, field numbers, enum values). iTerm2's own definition is GPL-2.0 and
// is not part of this project; only what is on the wire has to match it, so every field below
// carries the number iTerm2 expects and everything termhive never sends or reads is left out.
import protobuf from "protobufjs";

const SCHEMA = `
syntax = "proto2";
package iterm2;

message ClientOriginatedMessage {
  optional int64 id = 1;
  oneof submessage {
    GetBufferRequest get_buffer_request = 100;
    NotificationRequest notification_request = 103;
    SetProfilePropertyRequest set_profile_property_request = 105;
    ListSessionsRequest list_sessions_request = 106;
    SendTextRequest send_text_request = 107;
    CreateTabRequest create_tab_request = 108;
    SplitPaneRequest split_pane_request = 109;
    SetPropertyRequest set_property_request = 111;
    InjectRequest inject_request = 113;
    ActivateRequest activate_request = 114;
    VariableRequest variable_request = 115;
    CloseRequest close_request = 131;
  }
}

message ServerOriginatedMessage {
  optional int64 id = 1;
  oneof submessage {
    string error = 2;
    GetBufferResponse get_buffer_response = 100;
    NotificationResponse notification_response = 103;
    SetProfilePropertyResponse set_profile_property_response = 105;
    ListSessionsResponse list_sessions_response = 106;
    SendTextResponse send_text_response = 107;
    CreateTabResponse create_tab_response = 108;
    SplitPaneResponse split_pane_response = 109;
    SetPropertyResponse set_property_response = 111;
    InjectResponse inject_response = 113;
    ActivateResponse activate_response = 114;
    VariableResponse variable_response = 115;
    CloseResponse close_response = 131;
    Notification notification = 1000;
  }
}

message Coord { optional int32 x = 1; optional int64 y = 2; }
message CoordRange { optional Coord start = 1; optional Coord end = 2; }
message Range { optional int64 location = 1; optional int64 length = 2; }
message WindowedCoordRange { optional CoordRange coord_range = 1; optional Range columns = 2; }
message Size { optional int32 width = 1; optional int32 height = 2; }
message Point { optional int32 x = 1; optional int32 y = 2; }
message Frame { optional Point origin = 1; optional Size size = 2; }
message ProfileProperty { optional string key = 1; optional string json_value = 2; }

message LineRange {
  optional bool screen_contents_only = 1;
  optional int32 trailing_lines = 2;
  optional WindowedCoordRange windowed_coord_range = 3;
}
message CodePointsPerCell { optional int32 num_code_points = 1 [default = 1]; optional int32 repeats = 2; }
message LineContents {
  optional string text = 1;
  repeated CodePointsPerCell code_points_per_cell = 2;
  enum Continuation { CONTINUATION_HARD_EOL = 1; CONTINUATION_SOFT_EOL = 2; }
  optional Continuation continuation = 3 [default = CONTINUATION_HARD_EOL];
}
message GetBufferRequest { optional string session = 1; optional LineRange line_range = 2; }
message GetBufferResponse {
  enum Status { OK = 0; SESSION_NOT_FOUND = 1; INVALID_LINE_RANGE = 2; REQUEST_MALFORMED = 3; }
  optional Status status = 1 [default = OK];
  repeated LineContents contents = 3;
  optional Coord cursor = 4;
  optional int64 num_lines_above_screen = 5;
  optional WindowedCoordRange windowed_coord_range = 6;
}

enum NotificationType {
  NOTIFY_ON_KEYSTROKE = 1;
  NOTIFY_ON_SCREEN_UPDATE = 2;
  NOTIFY_ON_PROMPT = 3;
  NOTIFY_ON_CUSTOM_ESCAPE_SEQUENCE = 5;
  NOTIFY_ON_NEW_SESSION = 6;
  NOTIFY_ON_TERMINATE_SESSION = 7;
  NOTIFY_ON_LAYOUT_CHANGE = 8;
  NOTIFY_ON_FOCUS_CHANGE = 9;
  NOTIFY_ON_VARIABLE_CHANGE = 12;
}
enum VariableScope { SESSION = 1; TAB = 2; WINDOW = 3; APP = 4; }
message VariableMonitorRequest { optional string name = 1; optional VariableScope scope = 2; optional string identifier = 3; }
enum PromptMonitorMode { PROMPT = 1; COMMAND_START = 2; COMMAND_END = 3; }
message PromptMonitorRequest { repeated PromptMonitorMode modes = 1; }
message NotificationRequest {
  optional string session = 1;
  optional bool subscribe = 2;
  optional NotificationType notification_type = 3;
  oneof arguments {
    VariableMonitorRequest variable_monitor_request = 6;
    PromptMonitorRequest prompt_monitor_request = 9;
  }
}
message NotificationResponse {
  enum Status { OK = 0; SESSION_NOT_FOUND = 1; REQUEST_MALFORMED = 2; NOT_SUBSCRIBED = 3; ALREADY_SUBSCRIBED = 4; DUPLICATE_SERVER_ORIGINATED_RPC = 5; INVALID_IDENTIFIER = 6; }
  optional Status status = 1;
}

message ScreenUpdateNotification { optional string session = 1; }
message PromptNotificationPrompt { optional string placeholder = 1; }
message PromptNotificationCommandStart { optional string command = 1; }
message PromptNotificationCommandEnd { optional int32 status = 1; }
message PromptNotification {
  optional string session = 1;
  oneof event {
    PromptNotificationPrompt prompt = 2;
    PromptNotificationCommandStart command_start = 3;
    PromptNotificationCommandEnd command_end = 4;
  }
}
message CustomEscapeSequenceNotification { optional string session = 1; optional string sender_identity = 2; optional string payload = 3; }
message NewSessionNotification { optional string session_id = 1; }
message TerminateSessionNotification { optional string session_id = 1; }
message VariableChangedNotification { optional VariableScope scope = 1; optional string identifier = 2; optional string name = 3; optional string json_new_value = 4; }
message Notification {
  optional ScreenUpdateNotification screen_update_notification = 2;
  optional PromptNotification prompt_notification = 3;
  optional CustomEscapeSequenceNotification custom_escape_sequence_notification = 5;
  optional NewSessionNotification new_session_notification = 6;
  optional TerminateSessionNotification terminate_session_notification = 7;
  optional VariableChangedNotification variable_changed_notification = 12;
}

message SetProfilePropertyRequest {
  oneof target { string session = 1; }
  message Assignment { optional string key = 1; optional string json_value = 2; }
  repeated Assignment assignments = 5;
}
message SetProfilePropertyResponse {
  enum Status { OK = 0; SESSION_NOT_FOUND = 1; REQUEST_MALFORMED = 2; BAD_GUID = 3; }
  optional Status status = 1 [default = OK];
}

message ListSessionsRequest {}
message SessionSummary { optional string unique_identifier = 1; optional Frame frame = 2; optional Size grid_size = 3; optional string title = 4; }
message SplitTreeNode {
  optional bool vertical = 1;
  message SplitTreeLink {
    oneof child { SessionSummary session = 1; SplitTreeNode node = 2; }
  }
  repeated SplitTreeLink links = 2;
}
message ListSessionsResponse {
  message Tab { optional SplitTreeNode root = 3; optional string tab_id = 2; optional string tmux_window_id = 4; optional string tmux_connection_id = 5; }
  message Window { repeated Tab tabs = 1; optional string window_id = 2; optional Frame frame = 3; optional int32 number = 4; }
  repeated Window windows = 1;
  repeated SessionSummary buried_sessions = 2;
}

message SendTextRequest { optional string session = 1; optional string text = 2; optional bool suppress_broadcast = 3; }
message SendTextResponse { enum Status { OK = 0; SESSION_NOT_FOUND = 1; } optional Status status = 1; }

message CreateTabRequest {
  optional string profile_name = 1;
  optional string window_id = 2;
  optional uint32 tab_index = 3;
  repeated ProfileProperty custom_profile_properties = 5;
}
message CreateTabResponse {
  enum Status { OK = 0; INVALID_PROFILE_NAME = 1; INVALID_WINDOW_ID = 2; INVALID_TAB_INDEX = 3; MISSING_SUBSTITUTION = 4; }
  optional Status status = 1;
  optional string window_id = 2;
  optional int32 tab_id = 3;
  optional string session_id = 4;
}

message SplitPaneRequest {
  optional string session = 1;
  enum SplitDirection { VERTICAL = 0; HORIZONTAL = 1; }
  optional SplitDirection split_direction = 2;
  optional bool before = 3 [default = false];
  optional string profile_name = 4;
  repeated ProfileProperty custom_profile_properties = 5;
}
message SplitPaneResponse {
  enum Status { OK = 0; SESSION_NOT_FOUND = 1; INVALID_PROFILE_NAME = 2; CANNOT_SPLIT = 3; MALFORMED_CUSTOM_PROFILE_PROPERTY = 4; }
  optional Status status = 1;
  repeated string session_id = 2;
}

message SetPropertyRequest {
  oneof identifier { string window_id = 1; string session_id = 5; }
  optional string name = 3;
  optional string json_value = 4;
}
message SetPropertyResponse {
  enum Status { OK = 0; UNRECOGNIZED_NAME = 1; INVALID_VALUE = 2; INVALID_TARGET = 3; DEFERRED = 4; IMPOSSIBLE = 5; FAILED = 6; }
  optional Status status = 1;
}

message InjectRequest { repeated string session_id = 1; optional bytes data = 2; }
message InjectResponse { enum Status { OK = 0; SESSION_NOT_FOUND = 1; } repeated Status status = 1; }

message ActivateRequest {
  oneof identifier { string window_id = 1; string tab_id = 2; string session_id = 3; }
  optional bool order_window_front = 4;
  optional bool select_tab = 5;
  optional bool select_session = 6;
  message App { optional bool raise_all_windows = 1; optional bool ignoring_other_apps = 2; }
  optional App activate_app = 7;
}
message ActivateResponse { enum Status { OK = 0; BAD_IDENTIFIER = 1; INVALID_OPTION = 2; } optional Status status = 1; }

message VariableRequest {
  oneof scope { string session_id = 1; string tab_id = 4; bool app = 5; string window_id = 6; }
  message Set { optional string name = 1; optional string value = 2; }
  repeated Set set = 2;
  repeated string get = 3;
}
message VariableResponse {
  enum Status { OK = 0; SESSION_NOT_FOUND = 1; INVALID_NAME = 2; MISSING_SCOPE = 3; TAB_NOT_FOUND = 4; MULTI_GET_DISALLOWED = 5; WINDOW_NOT_FOUND = 6; }
  optional Status status = 1;
  repeated string values = 2;
}

message CloseRequest {
  message CloseSessions { repeated string session_ids = 1; }
  oneof target { CloseSessions sessions = 2; }
  optional bool force = 4;
}
message CloseResponse { enum Status { OK = 0; NOT_FOUND = 1; USER_DECLINED = 2; } repeated Status statuses = 1; }
`;

const root = protobuf.parse(SCHEMA, { keepCase: true }).root;

export const ClientMessage = root.lookupType("iterm2.ClientOriginatedMessage");
export const ServerMessage = root.lookupType("iterm2.ServerOriginatedMessage");

/** Decoding options: enums as their names, int64 as numbers, unset optionals absent. */
export const TO_OBJECT: protobuf.IConversionOptions = { enums: String, longs: Number, defaults: false, arrays: true, oneofs: true };

export function encodeClient(message: Record<string, unknown>): Uint8Array {
  return ClientMessage.encode(ClientMessage.fromObject(message)).finish();
}

export function decodeServer(data: Uint8Array): Record<string, any> {
  return ServerMessage.toObject(ServerMessage.decode(data), TO_OBJECT);
}

/** For the simulator in the tests: the same definitions, read from the other side. */
export function decodeClient(data: Uint8Array): Record<string, any> {
  return ClientMessage.toObject(ClientMessage.decode(data), TO_OBJECT);
}

export function encodeServer(message: Record<string, unknown>): Uint8Array {
  return ServerMessage.encode(ServerMessage.fromObject(message)).finish();
}
