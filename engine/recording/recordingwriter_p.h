// SPDX-License-Identifier: Apache-2.0
#pragma once
// RecordingWriter: the file side of RunRecorder, on a thread of its own so the engine thread
// only appends a record body to a queue (a mutex and a swap) and never waits for the disk. The
// objects a record carries (informer events, a call's object sent and reply) are queued as Objects
// (immutable, shared: a pointer copy) and turned into JSON here, off the engine thread.
// It wakes every 100 ms or when 512 records wait, numbers the records, writes one JSON line each, and rotates at
// maxBytes: PATH becomes PATH.1 (replacing an older one) and the new PATH starts with the header and a snapshot of the
// cache as the records so far left it (informers and their objects), so every file replays
// alone. Internal to engine/recording.

#include "engine/api/expected.h"
#include "engine/api/object.h"

#include <QByteArray>
#include <QFile>
#include <QHash>
#include <QList>
#include <QString>

#include <condition_variable>
#include <mutex>
#include <thread>
#include <vector>

namespace opbench::recording {

/// An object a record ends with, written as `,"key":{…}` (`null` for a null object).
struct ObjectField
{
    const char *key = nullptr; ///< a string literal; nullptr: no field
    Object object;
};

class RecordingWriter
{
public:
    /// What a record does to the snapshot a rotation writes: nothing, declares an informer, or
    /// puts / removes the object `key` (its body is the record itself).
    enum class Mirror : quint8 { None, Informer, Put, Remove };

    RecordingWriter(QString path, qint64 maxBytes);
    ~RecordingWriter();
    RecordingWriter(const RecordingWriter &) = delete;
    RecordingWriter &operator=(const RecordingWriter &) = delete;
    RecordingWriter(RecordingWriter &&) = delete;
    RecordingWriter &operator=(RecordingWriter &&) = delete;

    /// Creates (truncates) the file, writes the header record and starts the thread. The error
    /// names the path and the reason.
    Expected<void> open(QByteArray headerBody);
    /// Queues one record body (`"t":"…",…}` without the leading `{"seq":N,`). Thread-safe.
    void append(QByteArray body, Mirror mirror = Mirror::None, QByteArray key = {});
    /// Queues a record made of `head` (the body without its closing brace), then `first` and
    /// `second` as fields, then `}`: the objects' JSON is produced on the writer thread. Only for
    /// objects that need no redaction (the caller writes a Secret into `head` itself). Thread-safe.
    void appendWithObjects(
        QByteArray head, ObjectField first, ObjectField second = {}, Mirror mirror = Mirror::None, QByteArray key = {});
    /// Waits until everything queued so far is on disk.
    void flush();
    /// Flushes and stops the thread; the file is closed. Idempotent.
    void close();

    [[nodiscard]] qint64 bytesWritten() const;
    [[nodiscard]] qint64 recordsWritten() const;
    [[nodiscard]] int rotations() const;
    /// The first write error ("" when none).
    [[nodiscard]] QString error() const;

private:
    struct Pending
    {
        QByteArray body; ///< without its closing brace when `objects` is set
        Mirror mirror = Mirror::None;
        QByteArray key;
        bool objects = false;
        ObjectField first;
        ObjectField second;
    };
    void enqueue(Pending p);
    void run();
    void writeOne(const Pending &p);
    void writeLine(const QByteArray &body);
    void rotate();
    void mirror(const Pending &p, const QByteArray &body);

    QString m_path;
    qint64 m_maxBytes;
    QByteArray m_header;
    QFile m_file;
    std::thread m_thread;

    mutable std::mutex m_mutex;
    std::condition_variable m_wake;
    std::condition_variable m_done;
    std::vector<Pending> m_queue;
    qint64 m_queued = 0;
    qint64 m_handled = 0;
    bool m_stop = false;
    bool m_running = false;
    bool m_flushWanted = false;

    // Writer thread only (read under m_mutex by the accessors).
    qint64 m_seq = 0;
    qint64 m_fileBytes = 0;
    qint64 m_totalBytes = 0;
    qint64 m_records = 0;
    int m_rotations = 0;
    QString m_error;
    QList<QByteArray> m_informers;
    QHash<QByteArray, QByteArray> m_objects;
};

} // namespace opbench::recording
