import { DISCOVERY_MSG } from '@ohgood/contract/shorts-discovery-rules';
import { VideoListPage } from '../components/video-list-page';

/** /shorts/mypage/all: videos I liked. */
export default function LikedListPage() {
  return <VideoListPage list="all" title={DISCOVERY_MSG.likedVideos} emptyText={DISCOVERY_MSG.noLikes} />;
}
