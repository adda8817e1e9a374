#ifndef TILT_CGSTREAMER_SHIM_H
#define TILT_CGSTREAMER_SHIM_H
// GStreamer (Debian: libgstreamer1.0-dev, libgstreamer-plugins-base1.0-dev): the core, the app sink and app source
// (frames in and out of a pipeline) and the raw-video helpers. Used by TiltMedia only.
#include <gst/gst.h>
#include <gst/app/gstappsink.h>
#include <gst/app/gstappsrc.h>
#include <gst/video/video.h>

// GStreamer's casts and reference helpers are macros, which Swift does not import; these are the ones tilt needs.
static inline GstElement *tilt_gst_element(gpointer object) { return GST_ELEMENT(object); }
static inline GstAppSink *tilt_gst_app_sink(GstElement *element) { return GST_APP_SINK(element); }
static inline GstAppSrc *tilt_gst_app_src(GstElement *element) { return GST_APP_SRC(element); }
static inline GstBin *tilt_gst_bin(GstElement *element) { return GST_BIN(element); }
static inline GObject *tilt_g_object(gpointer object) { return G_OBJECT(object); }
static inline GstMessageType tilt_gst_message_type(GstMessage *message) { return GST_MESSAGE_TYPE(message); }
static inline GstObject *tilt_gst_message_source(GstMessage *message) { return GST_MESSAGE_SRC(message); }
static inline void tilt_gst_message_unref(GstMessage *message) { gst_message_unref(message); }
static inline void tilt_gst_sample_unref(GstSample *sample) { gst_sample_unref(sample); }
static inline void tilt_gst_caps_unref(GstCaps *caps) { gst_caps_unref(caps); }
static inline void tilt_gst_object_unref(gpointer object) { gst_object_unref(object); }
static inline void tilt_gst_buffer_unref(GstBuffer *buffer) { gst_buffer_unref(buffer); }
/// The time of frame `index` at `numerator`/`denominator` frames per second, in nanoseconds, without rounding drift.
static inline GstClockTime tilt_gst_frame_time(guint64 index, gint numerator, gint denominator) {
    return gst_util_uint64_scale(index, GST_SECOND * (guint64)denominator, (guint64)numerator);
}
static inline GstClockTime tilt_gst_clock_time_none(void) { return GST_CLOCK_TIME_NONE; }
#endif
