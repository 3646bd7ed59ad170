"""A governed retriever in an LCEL chain: only approved, policy-passing records, with receipts.

``UserloreRetriever`` is a LangChain ``BaseRetriever``: documents carry the record id, version,
kind, path, state and evidence ids in their metadata, and every retrieval is traced. Runs
offline with a fake chat model:

    python cookbook/04_retriever_in_a_chain.py
"""

from __future__ import annotations

from langchain_core.documents import Document
from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
from langchain_core.messages import AIMessage
from langchain_core.output_parsers import StrOutputParser
from langchain_core.prompts import ChatPromptTemplate
from langchain_core.runnables import RunnablePassthrough

from userlore import CandidateInput, Userlore
from userlore.integrations import UserloreRetriever

SCOPE = "acme:ana"
FACTS = [
    "Billing deploys go out on Tuesdays after the 10:00 stand-up.",
    "The billing service runs on Postgres 16 in eu-west-1.",
    "Releases of billing need a sign-off from Priya.",
    "The marketing site is built with Astro.",
]


def format_docs(docs: list[Document]) -> str:
    return "\n".join(
        f"[{d.metadata['record_id']} v{d.metadata['version']}] {d.page_content}" for d in docs
    )


def main() -> None:
    lore = Userlore.open("sqlite://", config={"memory": {"mode": "auto"}})
    for i, text in enumerate(FACTS):
        lore.write(
            SCOPE,
            CandidateInput(
                kind="workspace_fact",
                content=text,
                path="projects/billing" if i < 3 else "projects/web",
                evidence_text=f"Team wiki, page {i + 1}: {text}",
            ),
        )
    # A secret never becomes a record, so no retriever can ever return it.
    refused = lore.write(
        SCOPE,
        CandidateInput(
            kind="workspace_fact",
            content="Deploy token: ghp_a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8",
        ),
    )
    print("secret write:", refused.action.value, refused.reason)

    retriever = UserloreRetriever(lore=lore, scope=SCOPE, k=3, path_prefix="projects/billing")
    docs = retriever.invoke("when do billing deploys and releases happen?")
    for doc in docs:
        meta = doc.metadata
        print(
            f"{meta['record_id']} v{meta['version']} {meta['kind']} {meta['path']} "
            f"evidence={meta['evidence_ids']}: {doc.page_content}"
        )

    prompt = ChatPromptTemplate.from_messages(
        [
            ("system", "Answer from these workspace facts only; cite ids.\n{context}"),
            ("human", "{question}"),
        ]
    )
    model = GenericFakeChatModel(
        messages=iter(
            [
                AIMessage(
                    f"Billing deploys on Tuesdays after stand-up and needs Priya's sign-off "
                    f"[{docs[0].metadata['record_id']}]."
                )
            ]
        )
    )
    chain = (
        {"context": retriever | format_docs, "question": RunnablePassthrough()}
        | prompt
        | model
        | StrOutputParser()
    )
    print("answer:", chain.invoke("When can I ship a billing release?"))
    [trace, *_] = lore.traces.list(SCOPE, event_type="retrieve")
    print("retrieval trace selected:", [s["id"] for s in trace["payload"]["selected"]])
    assert all("ghp_" not in d.page_content for d in docs)
    lore.close()


if __name__ == "__main__":
    main()
