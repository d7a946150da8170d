import { DISCOVERY_MSG } from '@ohgood/contract/shorts-discovery-rules';
import { VideoListPage } from '../components/video-list-page';

/** /shorts/mypage/comments: videos I commented on, once each, with my latest comment. */
export default function CommentedListPage() {
  return <VideoListPage list="comments" title={DISCOVERY_MSG.commentedVideos} emptyText={DISCOVERY_MSG.noComments} />;
}
