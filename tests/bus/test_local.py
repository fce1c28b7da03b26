import asyncio

from tysiac.bus.base import QUEUE_LIMIT
from tysiac.bus.local import LocalBus
from tysiac.bus.messages import Deleted, Resync, Update


def test_every_subscriber_of_a_game_gets_its_messages_in_order() -> None:
    async def scenario() -> None:
        bus = LocalBus()
        first, second, other = (
            bus.subscribe("AAAAAA"),
            bus.subscribe("AAAAAA"),
            bus.subscribe("BBBBBB"),
        )
        await bus.publish("AAAAAA", Update(1, ()))
        await bus.publish("AAAAAA", Update(2, ()))
        for queue in (first, second):
            assert [queue.get_nowait(), queue.get_nowait()] == [Update(1, ()), Update(2, ())]
        assert other.empty()
        bus.unsubscribe("AAAAAA", first)
        await bus.publish("AAAAAA", Update(3, ()))
        assert first.empty() and second.get_nowait() == Update(3, ())

    asyncio.run(scenario())


def test_a_connection_that_never_reads_is_resynchronised_not_buffered_forever() -> None:
    async def scenario() -> None:
        bus = LocalBus()
        idle = bus.subscribe("AAAAAA")
        for version in range(QUEUE_LIMIT * 3):
            await bus.publish("AAAAAA", Update(version, ()))
        assert idle.qsize() <= QUEUE_LIMIT
        backlog = [idle.get_nowait() for _ in range(idle.qsize())]
        assert Resync() in backlog
        assert backlog[-1] == Update(QUEUE_LIMIT * 3 - 1, ())

    asyncio.run(scenario())


def test_a_deletion_is_never_lost_in_an_overflow() -> None:
    async def scenario() -> None:
        bus = LocalBus()
        idle = bus.subscribe("AAAAAA")
        for version in range(QUEUE_LIMIT - 1):
            await bus.publish("AAAAAA", Update(version, ()))
        await bus.publish("AAAAAA", Deleted())
        await bus.publish("AAAAAA", Update(999, ()))  # overflows: the backlog is dropped
        backlog = [idle.get_nowait() for _ in range(idle.qsize())]
        assert backlog == [Deleted()]

    asyncio.run(scenario())
