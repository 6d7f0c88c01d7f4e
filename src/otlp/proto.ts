import protobuf from 'protobufjs';

// The OTLP trace messages we read and write, as a protobufjs JSON descriptor
// written by us from the field numbers published in opentelemetry-proto
// (opentelemetry/proto/{collector/trace,trace,common,resource}/v1/*.proto,
// Apache-2.0) and google/rpc/status.proto. No upstream file is copied: only
// the numbers and types, which the wire format fixes. Fields we never read
// (trace_state, dropped_*_count, schema_url, entity_refs) are left out:
// protobuf skips unknown fields, so requests carrying them decode the same.

const KeyValue = { fields: { key: { type: 'string', id: 1 }, value: { type: 'AnyValue', id: 2 } } };
const AnyValue = {
  oneofs: {
    value: {
      oneof: ['stringValue', 'boolValue', 'intValue', 'doubleValue', 'arrayValue', 'kvlistValue', 'bytesValue'],
    },
  },
  fields: {
    stringValue: { type: 'string', id: 1 },
    boolValue: { type: 'bool', id: 2 },
    intValue: { type: 'int64', id: 3 },
    doubleValue: { type: 'double', id: 4 },
    arrayValue: { type: 'ArrayValue', id: 5 },
    kvlistValue: { type: 'KeyValueList', id: 6 },
    bytesValue: { type: 'bytes', id: 7 },
  },
};

const descriptor = {
  nested: {
    otlp: {
      nested: {
        KeyValue,
        AnyValue,
        ArrayValue: { fields: { values: { rule: 'repeated', type: 'AnyValue', id: 1 } } },
        KeyValueList: { fields: { values: { rule: 'repeated', type: 'KeyValue', id: 1 } } },
        Resource: { fields: { attributes: { rule: 'repeated', type: 'KeyValue', id: 1 } } },
        InstrumentationScope: {
          fields: {
            name: { type: 'string', id: 1 },
            version: { type: 'string', id: 2 },
            attributes: { rule: 'repeated', type: 'KeyValue', id: 3 },
          },
        },
        ExportTraceServiceRequest: { fields: { resourceSpans: { rule: 'repeated', type: 'ResourceSpans', id: 1 } } },
        ResourceSpans: {
          fields: {
            resource: { type: 'Resource', id: 1 },
            scopeSpans: { rule: 'repeated', type: 'ScopeSpans', id: 2 },
          },
        },
        ScopeSpans: {
          fields: { scope: { type: 'InstrumentationScope', id: 1 }, spans: { rule: 'repeated', type: 'Span', id: 2 } },
        },
        Span: {
          fields: {
            traceId: { type: 'bytes', id: 1 },
            spanId: { type: 'bytes', id: 2 },
            parentSpanId: { type: 'bytes', id: 4 },
            flags: { type: 'fixed32', id: 16 },
            name: { type: 'string', id: 5 },
            kind: { type: 'int32', id: 6 },
            startTimeUnixNano: { type: 'fixed64', id: 7 },
            endTimeUnixNano: { type: 'fixed64', id: 8 },
            attributes: { rule: 'repeated', type: 'KeyValue', id: 9 },
            events: { rule: 'repeated', type: 'Event', id: 11 },
            status: { type: 'Status', id: 15 },
          },
        },
        Event: {
          fields: {
            timeUnixNano: { type: 'fixed64', id: 1 },
            name: { type: 'string', id: 2 },
            attributes: { rule: 'repeated', type: 'KeyValue', id: 3 },
          },
        },
        // Span.Status: field 1 is reserved upstream; code is an enum on the wire (varint).
        Status: { fields: { message: { type: 'string', id: 2 }, code: { type: 'int32', id: 3 } } },
        ExportTraceServiceResponse: { fields: { partialSuccess: { type: 'ExportTracePartialSuccess', id: 1 } } },
        ExportTracePartialSuccess: {
          fields: { rejectedSpans: { type: 'int64', id: 1 }, errorMessage: { type: 'string', id: 2 } },
        },
        // google.rpc.Status: the body of an OTLP error answer; its details carry
        // one google.rpc.ErrorInfo (our problem code) packed in a google.protobuf.Any.
        RpcStatus: {
          fields: {
            code: { type: 'int32', id: 1 },
            message: { type: 'string', id: 2 },
            details: { rule: 'repeated', type: 'ProtoAny', id: 3 },
          },
        },
        ProtoAny: { fields: { type_url: { type: 'string', id: 1 }, value: { type: 'bytes', id: 2 } } },
        ErrorInfo: { fields: { reason: { type: 'string', id: 1 }, domain: { type: 'string', id: 2 } } },
      },
    },
  },
};

const root = protobuf.Root.fromJSON(descriptor);
export const ExportTraceServiceRequest = root.lookupType('otlp.ExportTraceServiceRequest');
export const ExportTraceServiceResponse = root.lookupType('otlp.ExportTraceServiceResponse');
export const RpcStatus = root.lookupType('otlp.RpcStatus');
export const ErrorInfo = root.lookupType('otlp.ErrorInfo');
export const ERROR_INFO_TYPE_URL = 'type.googleapis.com/google.rpc.ErrorInfo';
