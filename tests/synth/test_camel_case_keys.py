"""Key parameters in camel case (``NamedQueryId``) name their collection like snake case ones."""

from __future__ import annotations

from autoforge.env.artifact.spec import Attribute, CollectionSchema, StateSchema
from autoforge.synth.rulecode.classify import classify_tool, collection_of_key, key_param
from autoforge.tooldocs import id_base
from autoforge.tooldocs.spec import ToolSpec


def _schema() -> StateSchema:
    coll = CollectionSchema(
        name="named_queries",
        primary_key="named_query_id",
        attributes=[Attribute(name="named_query_id", type="id")],
    )
    return StateSchema(collections=[coll])


def test_id_base_of_camel_case() -> None:
    assert id_base("NamedQueryIds") == "named_query_id"
    assert id_base("NamedQueryId") == "named_query_id"
    assert id_base("item_ids") == "item_id" and id_base("orderid") == "orderid"


def test_camel_case_key_param_found() -> None:
    schema = _schema()
    spec = ToolSpec(
        name="DeleteNamedQuery",
        parameters={"type": "object", "properties": {"NamedQueryId": {"type": "string"}},
                    "required": ["NamedQueryId"]},
    )  # fmt: skip
    assert collection_of_key("NamedQueryId", schema) is schema.collections[0]
    assert key_param(spec, schema.collections[0]) == "NamedQueryId"
    c = classify_tool(spec, schema)
    assert c.cls == "delete" and c.key_param == "NamedQueryId"


def test_a_two_word_collection_named_in_the_tool_wins_over_its_last_word() -> None:
    def coll(name: str, key: str) -> CollectionSchema:
        return CollectionSchema(name=name, primary_key=key, attributes=[Attribute(name=key)])

    schema = StateSchema(
        collections=[coll("streams", "stream_id"), coll("delivery_streams", "DeliveryStreamName")]
    )
    spec = ToolSpec(
        name="DeleteDeliveryStream",
        parameters={"type": "object", "properties": {"DeliveryStreamName": {"type": "string"}},
                    "required": ["DeliveryStreamName"]},
    )  # fmt: skip
    c = classify_tool(spec, schema)
    assert c.collection == "delivery_streams" and c.key_param == "DeliveryStreamName"
    assert c.cls == "delete"
