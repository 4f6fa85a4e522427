// SPDX-License-Identifier: Apache-2.0
#pragma once
// JSON fixtures of tst_fieldmanager.cpp (kept out of the file moc reads).

inline const char *const kJson0 = R"({"apiVersion":"apps/v1","kind":"Deployment",
  "metadata":{"name":"web","labels":{"app":"web"}},
  "spec":{"replicas":3,"selector":{"matchLabels":{"app":"web"}},
    "template":{"metadata":{"labels":{"app":"web"}},
      "spec":{"containers":[{"name":"web","image":"nginx:1","ports":[{"containerPort":80}],
                             "env":[{"name":"A","value":"1"}]}]}}}})";
inline const char *const kJson1 = R"({"f:metadata":{"f:labels":{".":{},"f:app":{}}},
            "f:spec":{"f:template":{"f:spec":{"f:containers":{"k:{\"name\":\"web\"}":{".":{},"f:image":{}}}}}},
            "f:finalizers":{"v:\"a\"":{}}})";
inline const char *const kJson2 = R"({"f:spec":{"f:replicas":{},"f:paused":{}}})";
inline const char *const kJson3 = R"({"f:spec":{"f:replicas":{}}})";
inline const char *const kJson4 = R"({"f:metadata":{"f:labels":{"f:app":{}}},
            "f:spec":{"f:replicas":{},"f:selector":{},
              "f:template":{"f:metadata":{"f:labels":{"f:app":{}}},
                "f:spec":{"f:containers":{"k:{\"name\":\"web\"}":{".":{},"f:image":{},"f:name":{},
                   "f:env":{"k:{\"name\":\"A\"}":{".":{},"f:name":{},"f:value":{}}},
                   "f:ports":{"k:{\"containerPort\":80,\"protocol\":\"TCP\"}":{".":{},"f:containerPort":{}}}}}}}}})";
inline const char *const kJson5 = R"({"name":"web","labels":{"app":"other"}})";
inline const char *const kJson6
    = R"({"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"c"},"data":{"a":"1","b":"2"}})";
inline const char *const kJson7 = R"({"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"c"},"data":{"a":"1"}})";
inline const char *const kJson8 = R"({"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"c"},"data":{"b":"2"}})";
inline const char *const kJson9 = R"({"a":"1"})";
inline const char *const kJson10 = R"({"a":"1","b":"2"})";
inline const char *const kJson11 = R"({"type":"object","properties":{"spec":{"type":"object","properties":{
            "items":{"type":"array","x-kubernetes-list-type":"map","x-kubernetes-list-map-keys":["type"],
                     "items":{"type":"object","properties":{"type":{"type":"string"},"value":{"type":"string"}}}},
            "tags":{"type":"array","x-kubernetes-list-type":"set","items":{"type":"string"}}}}}})";
inline const char *const kJson12 = R"({"apiVersion":"example.com/v1","kind":"Thing","metadata":{"name":"t"},
            "spec":{"items":[{"type":"A","value":"1"}],"tags":["x"]}})";
inline const char *const kJson13 = R"({"apiVersion":"example.com/v1","kind":"Thing","metadata":{"name":"t"},
            "spec":{"items":[{"type":"B","value":"2"}],"tags":["y"]}})";
inline const char *const kJson14
    = R"({"apiVersion":"example.com/v1","kind":"Thing","metadata":{"name":"t"},"spec":{"tags":["x"]}})";
inline const char *const kJson15 = R"({"type":"B","value":"2"})";
inline const char *const kJson16 = R"({"replicas":1,"conditions":[{"type":"Available","status":"True"}]})";
inline const char *const kJson17
    = R"({"f:status":{"f:conditions":{".":{},"k:{\"type\":\"Available\"}":{".":{},"f:status":{},"f:type":{}}},"f:replicas":{}}})";
